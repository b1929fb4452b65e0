import Foundation

/// Where today's check-in stands, for the gate.
public enum CheckinState: String, Sendable, Codable {
    /// No check-in habit exists: the gate does not wait for one.
    case none
    case unanswered
    case no
    case yes
}

/// Whether the gate is open, and what is still missing when it is not. Pure: no clock, no I/O.
///
/// The gate is open when every required habit is settled today (done, skipped, or not due by its
/// schedule) and, if a check-in exists, today's answer is yes; or when today was unlocked; or when
/// the account's shield settings lift it (`GateLift`: past the cutoff, or a day off).
public struct GateDecision: Sendable, Equatable {
    /// A required habit that is not settled yet.
    public struct Pending: Sendable, Equatable {
        public let id: Int64
        public let name: String
        public let kind: HabitKind
        public let state: TodayState
    }

    public let pendingHabits: [Pending]
    /// The required habits settled by an excuse today: skipped, or on a travel day (not done).
    public let excusedHabits: [Pending]
    public let checkin: CheckinState
    /// The reason given for today's unlock, if today was unlocked.
    public let unlockReason: String?
    /// What lifts the gate today by the account's shield settings, if anything.
    public let lift: GateLift?

    /// True when the routine is done, today was unlocked, or the shield is lifted.
    public var isOpen: Bool { routineDone || unlockReason != nil || lift != nil }

    /// True when every required habit is settled and the check-in (if any) is answered yes.
    public var routineDone: Bool { pendingHabits.isEmpty && (checkin == .none || checkin == .yes) }

    /// Why the gate is open or closed, in the API's word.
    public var reason: GateReason {
        if routineDone { return .done }
        if unlockReason != nil { return .unlocked }
        switch lift {
        case .off: return .off
        case .cutoff: return .cutoff
        case nil: return .pending
        }
    }

    /// - Parameters:
    ///   - required: each required habit with its state today; check-in habits are left to `checkin`.
    public init(
        required: [(habit: Habit, state: TodayState)], checkin: CheckinState, unlockReason: String?,
        lift: GateLift? = nil
    ) {
        let habits = required.map {
            Pending(id: $0.habit.id, name: $0.habit.name, kind: $0.habit.kind, state: $0.state)
        }
        pendingHabits = habits.filter { !Self.isSettled($0.state) }
        excusedHabits = habits.filter { $0.state == .skipped || $0.state == .travel }
        self.checkin = checkin
        self.unlockReason = unlockReason
        self.lift = lift
    }

    /// The habits the gate waits for: the required ones but a check-in, which it judges by its answer,
    /// and an archived one, which asks nothing of a day (and spends no excuse).
    public static func gatedHabits(_ habits: [Habit]) -> [Habit] {
        habits.filter { $0.required && $0.kind != .checkin && !$0.archived }
    }

    /// Done, skipped, a travel day, or not due today: nothing more is asked of the habit today (a
    /// travel day can still be done, but the streak does not need it).
    public static func isSettled(_ state: TodayState) -> Bool {
        switch state {
        case .done, .skipped, .travel, .notDue: true
        case .pending: false
        }
    }
}

/// Why the gate is open (`done`, `unlocked`, `cutoff`, `off`) or closed (`pending`).
public enum GateReason: String, Sendable, Codable {
    case done, unlocked, pending, cutoff, off
}

/// One gate unlock: it opens the gate for the rest of `day`.
public struct GateUnlock: Hashable, Sendable {
    public var day: LocalDay
    public var at: Date
    public var reason: String

    public init(day: LocalDay, at: Date, reason: String) {
        self.day = day
        self.at = at
        self.reason = reason
    }

    /// Excuses (unlocks among them) allowed in any 7 days when `excuses.per-week` is not set.
    public static let defaultPerWeek = ExcuseBudget.defaultPerWeek
    /// The values `excuses.per-week` (alias `gate.unlocks-per-week`) may take.
    public static let perWeekLimits = ExcuseBudget.perWeekLimits

    /// The first day of the rolling week that ends on `day`: the unlocks counted against its limit.
    public static func windowStart(endingOn day: LocalDay) -> LocalDay { day.adding(days: -6) }

    /// Checks an unlock's reason: a few words on one line; returns it trimmed.
    public static func checkReason(_ reason: String) throws -> String {
        try UserText.validate(reason, field: .reason, maxLength: UserText.noteMaxLength)
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty {
            throw MorningProofError.usage("\(field: .reason) needs a few words: why does the gate have to open today?")
        }
        return trimmed
    }
}

/// What asking for an unlock does.
public enum GateUnlockOutcome: Equatable, Sendable {
    /// Recorded; `remaining` more unlocks are allowed in the 7 days ending on the unlocked day.
    case unlocked(remaining: Int)
    /// The day was already unlocked: nothing is recorded.
    case alreadyUnlocked(GateUnlock)
    /// `limit` unlocks were used in the 7 days ending on the day; the next one is allowed on `nextDay`
    /// (nil when the limit is 0).
    case limitReached(used: [GateUnlock], nextDay: LocalDay?)

    /// What unlocking `day` does, given the unlocks of the rolling week ending on it (oldest first)
    /// and the limit: at most `limit` in any 7 days, one a day. Pure: the store applies it.
    public static func of(unlocking day: LocalDay, week: [GateUnlock], limit: Int) -> GateUnlockOutcome {
        if let today = week.first(where: { $0.day == day }) { return .alreadyUnlocked(today) }
        guard week.count < limit else {
            // The oldest unlocks leave the window first: after the (count - limit + 1)-th oldest has left.
            let next = limit > 0 ? week[week.count - limit].day.adding(days: 7) : nil
            return .limitReached(used: week, nextDay: next)
        }
        return .unlocked(remaining: limit - week.count - 1)
    }
}
