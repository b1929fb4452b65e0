import Foundation
import MorningProofCore
import MorningProofStoreContract

/// The gate at a moment: the decision, the check-in it waits for and the quote of the moment.
public struct GateState: Sendable {
    public var day: LocalDay
    public var decision: GateDecision
    public var checkin: Checkin?
    public var book: QuoteBook
    public var quote: QuoteSchedule.Slot
    /// Why the configured quotes could not be used (the built-in ones are shown instead).
    public var quoteProblem: String?
    /// The excuses left this week (an unlock spends one).
    public var excuses: ExcuseStanding
}

/// What asking for a gate unlock did.
public struct GateUnlockResult: Sendable {
    /// The gate when the unlock was asked for.
    public var gate: GateState
    /// What the unlock did; nil when the routine was done already, so that none was used.
    public var outcome: GateUnlockOutcome?
    /// Unlocks allowed in any 7 days (`gate.unlocks-per-week`).
    public var limit: Int
}

/// The morning gate: open once the required habits are settled and the check-in is answered yes,
/// or for the rest of a day that was unlocked (a few times in any 7 days).
public struct GateService: Sendable {
    public let database: any AccountData
    public let clock: DayClock

    public init(database: any AccountData, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// What the gate decides at `now`, from the required habits, the check-in and an unlock for the
    /// day: all `gate --quiet` needs (no quotes are read).
    public func decision(now: Date) async throws -> (day: LocalDay, decision: GateDecision, checkin: Checkin?) {
        let today = clock.day(at: now)
        let required = try await database.progress(
            of: GateDecision.gatedHabits(try await database.habits()), today: today, need: .summary)
        let checkin = try await CheckinService(database: database, clock: clock).load(now: now)
        let unlock = try await database.gateUnlock(on: today)
        let decision = GateDecision(
            required: required.map { ($0.habit.name, $0.state) }, checkin: checkin?.state ?? .none,
            unlockReason: unlock?.reason)
        return (today, decision, checkin)
    }

    /// The gate at `now` as its screen shows it: the decision and the quote of the moment.
    public func state(now: Date) async throws -> GateState {
        let (day, decision, checkin) = try await self.decision(now: now)
        let (book, problem) = try await QuoteSource.loadForGate(database)
        return GateState(
            day: day, decision: decision, checkin: checkin, book: book,
            quote: book.schedule.moment(at: now, clock: clock).shown, quoteProblem: problem,
            excuses: try await database.excuseBudget().standing(on: day))
    }

    /// Opens the gate for the rest of the day `now` falls on, for `reason`: unless the routine is done
    /// already (nothing is used) or no excuse is left in the last 7 days (`ExcuseBudget`: unlocks,
    /// skips of required habits and empty travel days share it).
    public func unlock(reason: String, now: Date) async throws -> GateUnlockResult {
        let reason = try GateUnlock.checkReason(reason)
        let gate = try await state(now: now)
        let limit = try await database.gateUnlocksPerWeek()
        guard !gate.decision.routineDone else { return GateUnlockResult(gate: gate, outcome: nil, limit: limit) }
        // The budget is judged inside the unlock's transaction, so that a skip at the same moment
        // cannot spend the same last excuse.
        var outcome = try await database.unlockGateWithExcuse(day: gate.day, at: now, reason: reason)
        if case .limitReached(let used, _) = outcome {
            outcome = .limitReached(used: used, nextDay: gate.excuses.backOn)
        }
        return GateUnlockResult(gate: gate, outcome: outcome, limit: limit)
    }
}
