import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// Where a pass gets its health numbers: the files that changed, and each day's totals.
public struct MetricSources: Sendable {
    /// What reading the changed files found.
    public struct Scan: Sendable {
        public var filesRead: Int
        public var recordsRead: Int
        public var daysTouched: Set<LocalDay>
        /// Bad files and records, each one line: never the end of a pass.
        public var warnings: [String]

        public init(filesRead: Int = 0, recordsRead: Int = 0, daysTouched: Set<LocalDay> = [], warnings: [String] = [])
        {
            self.filesRead = filesRead
            self.recordsRead = recordsRead
            self.daysTouched = daysTouched
            self.warnings = warnings
        }
    }

    /// Reads the watched files that changed since the last pass.
    public var scanChanged: @Sendable () async throws -> Scan
    /// A metric's total on a day (for workouts, of one activity when given), or nil with no data.
    public var value: @Sendable (_ metric: String, _ day: LocalDay, _ activity: String?) async throws -> Double?

    public init(
        scanChanged: @escaping @Sendable () async throws -> Scan,
        value: @escaping @Sendable (_ metric: String, _ day: LocalDay, _ activity: String?) async throws -> Double?
    ) {
        self.scanChanged = scanChanged
        self.value = value
    }
}

/// What one pass did.
public struct PassReport: Sendable {
    public var scan = MetricSources.Scan()
    /// Days completed automatically, as "habit day".
    public var completed: [String] = []
    /// Events delivered by this pass (to the hook, when there is one).
    public var delivered: [NotificationEvent] = []
    /// Events this pass printed (at their first attempt, whatever the hook did).
    public var printed: [NotificationEvent] = []
    /// Deliveries that failed and will be tried again, each one line.
    public var failures: [String] = []

    /// True when the pass changed, printed or delivered nothing: `check` then prints nothing.
    public var isQuiet: Bool { completed.isEmpty && delivered.isEmpty && printed.isEmpty && failures.isEmpty }
}

/// One pass of the observer: read the changed health files, complete the metric habits whose
/// goal is met, and deliver each day's `goal.met` and `habit.reminder` at most once.
/// `check` runs one; `watch` runs one per interval.
public struct CheckPass: Sendable {
    public var database: any CheckPassStore
    public var clock: DayClock
    public var sources: MetricSources
    /// The hook to run for each event; nil delivers to stdout only.
    public var hook: HookRunner?
    /// The clock of claim leases and of the back-off between a failing hook's attempts: nil for the
    /// pass's own (`--now`, MORNINGPROOF_NOW, or `watch`'s moving now), so that `check --now` passes
    /// five minutes apart retry a failed event as passes five real minutes apart do, as the server's
    /// notification pass does under its `now`; a test may give another.
    public var realTime: (@Sendable () -> Date)?
    /// Set when `watch` shuts down: the running hook is killed and nothing more is claimed.
    public var stop: ShutdownRequest?

    public init(
        database: any CheckPassStore, clock: DayClock, sources: MetricSources, hook: HookRunner? = nil,
        realTime: (@Sendable () -> Date)? = nil, stop: ShutdownRequest? = nil
    ) {
        self.database = database
        self.clock = clock
        self.sources = sources
        self.hook = hook
        self.realTime = realTime
        self.stop = stop
    }

    /// Now on the clock of claims and back-off (`realTime`, which `run` sets).
    private var claimTime: Date { realTime?() ?? Date() }

    /// How long a claim is held before another pass may take it over: longer than any delivery.
    var lease: TimeInterval { (hook?.timeout ?? 0) + 60 }

    /// Runs the pass at `now`; `emit` gets each event at its first attempt, in order, whether or
    /// not the hook then succeeds (a retry is the hook's alone). Throws only when the database
    /// fails; bad files are warnings in the report. A requested `stop` ends the pass early.
    /// Goals are judged by `GoalJudge`, on the days whose data changed (whoever wrote it: these
    /// files, `metrics import`), today and yesterday; its claims are delivered at once.
    public func run(at now: Date, emit: (NotificationEvent) -> Void = { _ in }) async throws -> PassReport {
        guard realTime != nil else {
            var pass = self
            pass.realTime = { now }
            return try await pass.run(at: now, emit: emit)
        }
        var report = PassReport()
        report.scan = try await sources.scanChanged()
        let today = clock.day(at: now)
        let stop = self.stop
        let judged = try await GoalJudge(store: database, clock: clock, values: .perDay(sources.value)).judge(
            also: report.scan.daysTouched, at: now, realTime: claimTime, delivery: .now(lease: lease),
            stop: { stop?.isRequested == true }
        ) { claim in
            try await deliver(claim, report: &report, emit: emit)
        }
        report.completed += judged.completed.map { "\($0.habit) \($0.day)" }
        for habit in try await database.habits()
        where habit.remindAt != nil && habit.createdDay <= today && stop?.isRequested != true {
            try await remind(habit, today: today, now: now, report: &report, emit: emit)
        }
        return report
    }

    private func remind(
        _ habit: Habit, today: LocalDay, now: Date, report: inout PassReport, emit: (NotificationEvent) -> Void
    ) async throws {
        let sources = self.sources
        guard
            let request = try await ReminderRule.request(
                for: habit, in: database, clock: clock, now: now,
                value: { goal in try await sources.value(goal.metric, today, goal.activity) })
        else { return }
        let decision = try await database.decideAndClaim(request, at: claimTime, lease: lease)
        if let claim = decision.claim { try await deliver(claim, report: &report, emit: emit) }
    }

    /// Delivers a claimed event: stdout at its first attempt, then the hook (when there is one); a
    /// failure gives the claim back with its error for a later pass, after the back-off.
    private func deliver(_ claim: NotificationClaim, report: inout PassReport, emit: (NotificationEvent) -> Void)
        async throws
    {
        guard let event = NotificationEvent.decode(claim.event) else {
            try await database.markFailed(claim, error: "the stored event is not readable")
            return
        }
        if claim.attempt == 1 {
            report.printed.append(event)
            emit(event)
        }
        if let hook {
            let started = claimTime
            do {
                try hook.deliver(event, stop: stop)
            } catch {
                let attempts = "attempt \(claim.attempt) of \(NotificationClaimRule.maxAttemptsPerDay)"
                try await database.markFailed(claim, error: "\(error.description) (\(attempts))")
                report.failures.append(
                    "\(event.event.rawValue) for \(event.habit) on \(event.day): \(error) (\(attempts); "
                        + nextAttempt(after: claim.attempt, startedAt: started) + ")")
                return
            }
        }
        try await database.markDelivered(claim, at: claimTime)
        report.delivered.append(event)
    }

    /// "next attempt in 2 min", or "no more attempts today".
    private func nextAttempt(after attempt: Int, startedAt: Date) -> String {
        guard
            let next = NotificationClaimRule.nextAttempt(
                afterAttempts: attempt, claimedAt: startedAt, maxAttempts: NotificationClaimRule.maxAttemptsPerDay)
        else { return "no more attempts today" }
        let minutes = max(0, Int((next.timeIntervalSince(claimTime) / 60).rounded(.up)))
        return minutes == 0 ? "next attempt at the next pass" : "next attempt in \(minutes) min"
    }
}
