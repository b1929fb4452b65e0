import Foundation
import MorningProofCore

/// A habit the server's notification pass may have something to say about (a reminder, an at-most
/// goal to judge once its day is over), with the account it belongs to.
public struct NotifiableHabit: Sendable {
    public var account: AccountProfile
    public var habit: Habit

    public init(account: AccountProfile, habit: Habit) {
        self.account = account
        self.habit = habit
    }
}

/// One notification of one habit and day: what the pass asks the store about in one go.
public struct NotificationSlot: Sendable, Hashable {
    public var habitID: Int64
    public var day: LocalDay
    /// The notification's key (`NotificationEvent.key`).
    public var key: String

    public init(habitID: Int64, day: LocalDay, key: String) {
        self.habitID = habitID
        self.day = day
        self.key = key
    }
}
