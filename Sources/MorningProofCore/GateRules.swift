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
/// schedule) and, if a check-in exists, today's answer is yes; or when today was unlocked.
public struct GateDecision: Sendable, Equatable {
    /// A required habit that is not settled yet.
    public struct Pending: Sendable, Equatable {
        public let name: String
        public let state: TodayState
    }

    public let pendingHabits: [Pending]
    public let checkin: CheckinState
    /// The reason given for today's unlock, if today was unlocked.
    public let unlockReason: String?

    /// True when the routine is done (or today was unlocked).
    public var isOpen: Bool { routineDone || unlockReason != nil }

    /// True when every required habit is settled and the check-in (if any) is answered yes.
    public var routineDone: Bool { pendingHabits.isEmpty && (checkin == .none || checkin == .yes) }

    /// - Parameters:
    ///   - required: each required habit with its state today; check-in habits are left to `checkin`.
    public init(required: [(name: String, state: TodayState)], checkin: CheckinState, unlockReason: String?) {
        pendingHabits = required.filter { !Self.isSettled($0.state) }.map { Pending(name: $0.name, state: $0.state) }
        self.checkin = checkin
        self.unlockReason = unlockReason
    }

    /// Done, skipped, or not due today: nothing more is asked of the habit today.
    public static func isSettled(_ state: TodayState) -> Bool {
        switch state {
        case .done, .skipped, .notDue: true
        case .pending: false
        }
    }
}
