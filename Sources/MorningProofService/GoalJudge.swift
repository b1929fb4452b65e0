import Foundation
import MorningProofCore
import MorningProofStoreContract

/// The goals of an account's metric habits, judged for the days whose data changed (the store's
/// marks, `MetricImportStore.metricDaysToJudge`), today and yesterday, by one rule for every front
/// end (`check`, `watch`, `metrics import`, `POST /api/metrics`): an at-least goal is met as soon
/// as its total reaches the target; an at-most goal only once its day is over; a manual entry
/// wins; a goal met on a day older than yesterday completes that day silently; on today and
/// yesterday the `goal.met` event is claimed in the same transaction as the entry, once per habit
/// and day, whichever process judges first.
public struct GoalJudge: Sendable {
    /// Who delivers the `goal.met` events claimed.
    public enum Delivery: Sendable {
        /// The caller, at once (`check`, `watch`): a claim is held for `lease` seconds.
        case now(lease: TimeInterval)
        /// The next pass (`metrics import`, an ingest, which deliver nothing themselves).
        case queued
    }

    /// What a judgement did.
    public struct Outcome: Sendable {
        /// The days completed, in the order judged (habit by habit, oldest day first).
        public var completed: [CompletedGoal] = []
        /// Events claimed for the next pass (`Delivery.queued`).
        public var queued = 0
    }

    /// Goals met on older days (an import of last year) complete those days without an event.
    public static let notifiedDays = 2

    let store: any MetricIngestStore
    let clock: DayClock
    /// A metric's value on a day (for workouts, of one activity when given); nil with no data.
    let value: @Sendable (_ metric: String, _ day: LocalDay, _ activity: String?) async throws -> Double?

    /// Judges with the store's own day values, or with `value` when given (tests stand in for files).
    public init(
        store: any MetricIngestStore, clock: DayClock,
        value: (@Sendable (_ metric: String, _ day: LocalDay, _ activity: String?) async throws -> Double?)? = nil
    ) {
        self.store = store
        self.clock = clock
        self.value = value ?? { metric, day, activity in try await store.metricValue(metric: metric, day: day, activity: activity) }
    }

    /// Judges the account's metric goals at `now` on the marked days, `also`, today and yesterday,
    /// then forgets the marks it judged. `claimed` gets each claim made for delivery now
    /// (`Delivery.now`), as it is made. `realTime` stamps claims (`--now` may replay another day,
    /// leases are about live processes). `stop` ends the judgement early, keeping the marks.
    public func judge(
        also extra: Set<LocalDay> = [], at now: Date, realTime: Date, delivery: Delivery,
        stop: @Sendable () -> Bool = { false }, claimed: (NotificationClaim) async throws -> Void = { _ in }
    ) async throws -> Outcome {
        let today = clock.day(at: now)
        let marks = try await store.metricDaysToJudge()
        let candidates = extra.union(marks.keys).union([today, today.adding(days: -1)])
        var outcome = Outcome()
        for habit in try await store.habits() where habit.kind == .metric && habit.goal != nil {
            for day in candidates.filter({ $0 >= habit.createdDay && $0 <= today }).sorted() {
                if stop() { return outcome }
                try await judge(
                    habit, on: day, today: today, now: now, realTime: realTime, delivery: delivery, outcome: &outcome,
                    claimed: claimed)
            }
        }
        try await store.judgedMetricDays(marks)
        return outcome
    }

    private func judge(
        _ habit: Habit, on day: LocalDay, today: LocalDay, now: Date, realTime: Date, delivery: Delivery,
        outcome: inout Outcome, claimed: (NotificationClaim) async throws -> Void
    ) async throws {
        guard let goal = habit.goal else { return }
        // A limit can still be broken until the day is over.
        if goal.comparison == .atMost && day >= today { return }
        var total = try await value(goal.metric, day, goal.activity)
        // No workouts on a day the data covers counts as zero against a limit; a day with no data
        // at all (the phone has not sent it yet) is not judged.
        if total == nil, goal.comparison == .atMost, try await hasAnyData(on: day) { total = 0 }
        guard let total, goal.isMet(by: total) else { return }
        let key = NotificationEvent.key(.goalMet, habitID: habit.id)
        let notify = day > today.adding(days: -Self.notifiedDays)
        let existing = try await store.entry(habitID: habit.id, day: day)
        if existing?.status == .done || existing?.source == .manual {
            if !notify { return }
            if try await store.settledNotificationKeys([key], day: day).contains(key) { return }
        }
        let entry = Entry(
            habitID: habit.id, day: day, status: .done, value: total, source: .metric, note: goal.summary,
            recordedAt: now, zone: clock.zoneIdentifier)
        let recorded: RecordOutcome?
        if notify {
            let event = NotificationEvent(
                event: .goalMet, habit: habit.name, day: day, goal: goal, value: total,
                message: Self.message(habit, goal, total, day: day, today: today),
                at: NotificationEvent.timestamp(now, in: clock))
            var request = ClaimRequest(key: key, day: day, event: event.json(), entry: entry)
            var lease: TimeInterval = 0
            switch delivery {
            case .now(let held): lease = held
            case .queued: request.queued = true
            }
            let decision = try await store.decideAndClaim(request, at: realTime, lease: lease)
            recorded = decision.entryOutcome
            if decision.queued { outcome.queued += 1 }
            if let claim = decision.claim { try await claimed(claim) }
        } else {
            recorded = try await store.record(entry)
        }
        switch recorded {
        case .recorded?, .replaced?:
            outcome.completed.append(
                CompletedGoal(habitID: habit.id, habit: habit.name, day: day, value: total, target: goal.target))
        default: break
        }
    }

    /// True when any metric has a value on `day`: the data covers it.
    private func hasAnyData(on day: LocalDay) async throws -> Bool {
        for metric in HealthMetric.allCases where try await value(metric.rawValue, day, nil) != nil { return true }
        return false
    }

    /// "Walk: 8,412 steps today, goal at least 8,000 steps met."
    static func message(_ habit: Habit, _ goal: MetricGoal, _ value: Double, day: LocalDay, today: LocalDay) -> String {
        let amount = HealthMetric(name: goal.metric).map { GoalTarget.format(value, for: $0) } ?? "\(value)"
        let when = day == today ? "today" : day == today.adding(days: -1) ? "yesterday" : "on \(day)"
        return "\(habit.name): \(amount) \(when), goal \(goal.summary) met."
    }
}
