import Foundation

/// A day's answer to the check-in question.
public struct CheckinAnswer: Hashable, Sendable {
    public var habitID: Int64
    public var day: LocalDay
    public var yes: Bool
    public var answeredAt: Date

    public init(habitID: Int64, day: LocalDay, yes: Bool, answeredAt: Date) {
        self.habitID = habitID
        self.day = day
        self.yes = yes
        self.answeredAt = answeredAt
    }

    /// The answer that stands for a day whose stored answer is `stored` and whose entry is `entry`:
    /// a stored yes; else a done entry recorded some other way (`done`, an import) answers yes;
    /// else the stored no, if any.
    public static func standing(stored: CheckinAnswer?, entry: Entry?) -> CheckinAnswer? {
        if stored?.yes == true { return stored }
        if let entry, entry.status == .done {
            return CheckinAnswer(habitID: entry.habitID, day: entry.day, yes: true, answeredAt: entry.recordedAt)
        }
        return stored
    }

    /// The most recent answer of a check-in habit, from its latest stored answer and its latest done
    /// entry (which counts as a yes): whichever was given later.
    public static func latest(stored: CheckinAnswer?, doneEntry: (day: LocalDay, recordedAt: Date)?, habitID: Int64)
        -> CheckinAnswer?
    {
        let entry = doneEntry.map { CheckinAnswer(habitID: habitID, day: $0.day, yes: true, answeredAt: $0.recordedAt) }
        return [stored, entry].compactMap { $0 }.max { $0.answeredAt < $1.answeredAt }
    }
}
