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
    /// The next instant the answer changes by the clock alone: the cutoff while the gate waits for
    /// it, the start of the next day while it is open; nil when only the routine or an unlock opens it.
    public var nextChange: Date?
}

/// What asking for a gate unlock did.
public struct GateUnlockResult: Sendable {
    /// The gate when the unlock was asked for.
    public var gate: GateState
    /// What the unlock did; nil when the routine was done already (or the shield is lifted today),
    /// so that none was used.
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

    /// What the gate decides at `now`, from the required habits, the check-in, an unlock for the
    /// day and the shield's settings: all `gate --quiet` needs (no quotes are read).
    public func decision(now: Date) async throws -> (day: LocalDay, decision: GateDecision, checkin: Checkin?) {
        let (day, decision, checkin, _) = try await judged(now: now)
        return (day, decision, checkin)
    }

    private func judged(now: Date) async throws -> (
        day: LocalDay, decision: GateDecision, checkin: Checkin?, settings: GateSettings
    ) {
        let today = clock.day(at: now)
        let required = try await database.progress(
            of: GateDecision.gatedHabits(try await database.habits()), today: today, need: .summary)
        let checkin = try await CheckinService(database: database, clock: clock).load(now: now)
        let unlock = try await database.gateUnlock(on: today)
        let settings = try await GateSettingsService(database: database).settings()
        let decision = GateDecision(
            required: required.map { ($0.habit, $0.state) }, checkin: checkin?.state ?? .none,
            unlockReason: unlock?.reason, lift: settings.lift(on: today, at: now, clock: clock))
        return (today, decision, checkin, settings)
    }

    /// The gate at `now` as its screen shows it: the decision and the quote of the moment.
    public func state(now: Date) async throws -> GateState {
        let (day, decision, checkin, settings) = try await judged(now: now)
        let (book, problem) = try await QuoteSource.loadForGate(database)
        let nextChange =
            decision.isOpen
            ? clock.start(of: day.adding(days: 1))
            : settings.cutoffInstant(on: day, clock: clock).flatMap { $0 > now ? $0 : nil }
        return GateState(
            day: day, decision: decision, checkin: checkin, book: book,
            quote: book.schedule.moment(at: now, clock: clock).shown, quoteProblem: problem,
            excuses: try await database.excuseBudget().standing(on: day), nextChange: nextChange)
    }

    /// Opens the gate for the rest of the day `now` falls on, for `reason`: unless the routine is done
    /// already (nothing is used) or no excuse is left in the last 7 days (`ExcuseBudget`: unlocks,
    /// skips of required habits and empty travel days share it).
    public func unlock(reason: String, now: Date) async throws -> GateUnlockResult {
        let reason = try GateUnlock.checkReason(reason)
        let gate = try await state(now: now)
        let limit = try await database.gateUnlocksPerWeek()
        // Done, a day off or past the cutoff: the gate is open without spending an excuse.
        guard !gate.decision.routineDone, gate.decision.lift == nil else {
            return GateUnlockResult(gate: gate, outcome: nil, limit: limit)
        }
        // The budget is judged inside the unlock's transaction, so that a skip at the same moment
        // cannot spend the same last excuse.
        var outcome = try await database.unlockGateWithExcuse(day: gate.day, at: now, reason: reason)
        if case .limitReached(let used, _) = outcome {
            outcome = .limitReached(used: used, nextDay: gate.excuses.backOn)
        }
        return GateUnlockResult(gate: gate, outcome: outcome, limit: limit)
    }
}
