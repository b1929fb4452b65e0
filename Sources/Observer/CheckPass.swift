import Foundation
import MorningProofCore
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
    /// Real time, for claim leases and the back-off between a failing hook's attempts (`--now` may
    /// replay another day, but both are about live processes).
    public var realTime: @Sendable () -> Date
    /// Set when `watch` shuts down: the running hook is killed and nothing more is claimed.
    public var stop: ShutdownRequest?

    /// Goals met on older days (an import of last year) complete those days silently.
    public static let notifiedDays = 2

    public init(
        database: any CheckPassStore, clock: DayClock, sources: MetricSources, hook: HookRunner? = nil,
        realTime: @escaping @Sendable () -> Date = { Date() }, stop: ShutdownRequest? = nil
    ) {
        self.database = database
        self.clock = clock
        self.sources = sources
        self.hook = hook
        self.realTime = realTime
        self.stop = stop
    }

    /// How long a claim is held before another pass may take it over: longer than any delivery.
    var lease: TimeInterval { (hook?.timeout ?? 0) + 60 }

    /// Runs the pass at `now`; `emit` gets each event at its first attempt, in order, whether or
    /// not the hook then succeeds (a retry is the hook's alone). Throws only when the database
    /// fails; bad files are warnings in the report. A requested `stop` ends the pass early.
    public func run(at now: Date, emit: (NotificationEvent) -> Void = { _ in }) async throws -> PassReport {
        var report = PassReport()
        report.scan = try await sources.scanChanged()
        let today = clock.day(at: now)
        let habits = try await database.habits()
        for habit in habits where habit.kind == .metric && habit.goal != nil && habit.createdDay <= today {
            let days = report.scan.daysTouched.union([today, today.adding(days: -1)])
                .filter { $0 >= habit.createdDay && $0 <= today }.sorted()
            for day in days where stop?.isRequested != true {
                try await judgeGoal(of: habit, on: day, today: today, now: now, report: &report, emit: emit)
            }
        }
        for habit in habits where habit.remindAt != nil && habit.createdDay <= today && stop?.isRequested != true {
            try await remind(habit, today: today, now: now, report: &report, emit: emit)
        }
        return report
    }

    private func judgeGoal(
        of habit: Habit, on day: LocalDay, today: LocalDay, now: Date, report: inout PassReport,
        emit: (NotificationEvent) -> Void
    ) async throws {
        guard let goal = habit.goal else { return }
        // A limit can still be broken until the day is over.
        if goal.comparison == .atMost && day >= today { return }
        var total = try await sources.value(goal.metric, day, goal.activity)
        // No workouts on a day the files cover counts as zero against a limit; a day with no data
        // at all (the phone has not exported it yet) is not judged.
        if total == nil, goal.comparison == .atMost, try await hasAnyData(on: day) { total = 0 }
        guard let value = total, goal.isMet(by: value) else { return }
        let key = NotificationEvent.key(.goalMet, habitID: habit.id)
        let notify = day > today.adding(days: -Self.notifiedDays)
        let existing = try await database.entry(habitID: habit.id, day: day)
        let entryIsSettled = existing?.status == .done || existing?.source == .manual
        if entryIsSettled {
            if !notify { return }
            if try await database.settledNotificationKeys([key], day: day).contains(key) { return }
        }
        let entry = Entry(
            habitID: habit.id, day: day, status: .done, value: value, source: .metric, note: goal.summary,
            recordedAt: now, zone: clock.zoneIdentifier)
        guard notify else {
            if try await database.record(entry) != .unchanged { report.completed.append("\(habit.name) \(day)") }
            return
        }
        let event = NotificationEvent(
            event: .goalMet, habit: habit.name, day: day, goal: goal, value: value,
            message: goalMessage(habit, goal, value, day: day, today: today), at: timestamp(now))
        let decision = try await database.decideAndClaim(
            ClaimRequest(key: key, day: day, event: event.json(), entry: entry), at: realTime(), lease: lease)
        switch decision.entryOutcome {
        case .recorded?, .replaced?: report.completed.append("\(habit.name) \(day)")
        default: break
        }
        if let claim = decision.claim { try await deliver(claim, report: &report, emit: emit) }
    }

    /// True when any metric has a value on `day`: the exported files cover it.
    private func hasAnyData(on day: LocalDay) async throws -> Bool {
        for metric in HealthMetric.allCases where try await sources.value(metric.rawValue, day, nil) != nil { return true }
        return false
    }

    private func remind(
        _ habit: Habit, today: LocalDay, now: Date, report: inout PassReport, emit: (NotificationEvent) -> Void
    ) async throws {
        guard let remindAt = habit.remindAt else { return }
        // A reminder before the day start (01:00 with days starting at 04:00) falls on the next date.
        let date = remindAt < clock.dayStart ? today.adding(days: 1) : today
        guard now >= clock.instant(on: date, secondsAfterMidnight: remindAt * 60) else { return }
        let key = NotificationEvent.key(.reminder, habitID: habit.id)
        if try await database.settledNotificationKeys([key], day: today).contains(key) { return }
        // An entry today (done or skipped) makes today's state other than pending.
        guard try await database.progress(of: habit, today: today, need: .summary).state == .pending else { return }
        var value: Double?
        var message = "\(habit.name): not done yet today"
        if let goal = habit.goal, let metric = HealthMetric(name: goal.metric) {
            value = try await sources.value(goal.metric, today, goal.activity)
            message += " (goal \(goal.summary); \(GoalTarget.format(value ?? 0, for: metric)) so far)"
        }
        let event = NotificationEvent(
            event: .reminder, habit: habit.name, day: today, goal: habit.goal, value: value, message: message + ".",
            at: timestamp(now))
        let decision = try await database.decideAndClaim(
            ClaimRequest(
                key: key, day: today, event: event.json(), condition: .habitHasNoEntry(habitID: habit.id)),
            at: realTime(), lease: lease)
        if let claim = decision.claim { try await deliver(claim, report: &report, emit: emit) }
    }

    /// Delivers a claimed event: stdout at its first attempt, then the hook (when there is one); a
    /// failure gives the claim back with its error for a later pass, after the back-off.
    private func deliver(_ claim: NotificationClaim, report: inout PassReport, emit: (NotificationEvent) -> Void) async throws
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
            let started = realTime()
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
        try await database.markDelivered(claim, at: realTime())
        report.delivered.append(event)
    }

    /// "next attempt in 2 min", or "no more attempts today".
    private func nextAttempt(after attempt: Int, startedAt: Date) -> String {
        guard
            let next = NotificationClaimRule.nextAttempt(
                afterAttempts: attempt, claimedAt: startedAt, maxAttempts: NotificationClaimRule.maxAttemptsPerDay)
        else { return "no more attempts today" }
        let minutes = max(0, Int((next.timeIntervalSince(realTime()) / 60).rounded(.up)))
        return minutes == 0 ? "next attempt at the next pass" : "next attempt in \(minutes) min"
    }

    private func goalMessage(_ habit: Habit, _ goal: MetricGoal, _ value: Double, day: LocalDay, today: LocalDay)
        -> String
    {
        let amount = HealthMetric(name: goal.metric).map { GoalTarget.format(value, for: $0) } ?? "\(value)"
        let when = day == today ? "today" : day == today.adding(days: -1) ? "yesterday" : "on \(day)"
        return "\(habit.name): \(amount) \(when), goal \(goal.summary) met."
    }

    private func timestamp(_ now: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = clock.timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: now)
    }
}
