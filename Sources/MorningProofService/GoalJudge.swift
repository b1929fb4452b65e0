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

        /// Lists the entry when recording it completed its day (not when it was there already or a
        /// manual one was kept).
        mutating func count(_ recorded: RecordOutcome, habit: Habit, entry: Entry, target: Double) {
            switch recorded {
            case .recorded, .replaced:
                completed.append(
                    CompletedGoal(habitID: habit.id, habit: habit.name, day: entry.day, value: entry.value ?? 0, target: target))
            case .unchanged, .keptManual, .superseded: break
            }
        }
    }

    /// Goals met on older days (an import of last year) complete those days without an event.
    public static let notifiedDays = 2

    /// Where the judgement reads the days' values.
    public struct Values: Sendable {
        /// A metric's value on each of `days` that has one (for workouts, of one activity when given).
        public var of: @Sendable (_ metric: String, _ days: [LocalDay], _ activity: String?) async throws -> [LocalDay: Double]
        /// The days, among `days`, on which any metric has a value: the data covers them.
        public var covered: @Sendable (_ days: [LocalDay]) async throws -> Set<LocalDay>

        public init(
            of: @escaping @Sendable (_ metric: String, _ days: [LocalDay], _ activity: String?) async throws -> [LocalDay: Double],
            covered: @escaping @Sendable (_ days: [LocalDay]) async throws -> Set<LocalDay>
        ) {
            self.of = of
            self.covered = covered
        }

        /// The store's day totals, one read per metric for all the days judged (first to last).
        public static func stored(in store: any MetricImportStore) -> Values {
            Values(
                of: { metric, days, activity in
                    guard let first = days.min(), let last = days.max() else { return [:] }
                    return try await store.metricValues(metric: metric, from: first, to: last, activity: activity)
                },
                covered: { days in
                    guard let first = days.min(), let last = days.max() else { return [] }
                    return Set(try await store.metricDays(from: first, to: last).filter { !$0.value.isEmpty }.keys)
                })
        }

        /// A value read day by day (`check`'s sources, which tests stand in for).
        public static func perDay(
            _ value: @escaping @Sendable (_ metric: String, _ day: LocalDay, _ activity: String?) async throws -> Double?
        ) -> Values {
            Values(
                of: { metric, days, activity in
                    var values: [LocalDay: Double] = [:]
                    for day in days { values[day] = try await value(metric, day, activity) }
                    return values
                },
                covered: { days in
                    var covered: Set<LocalDay> = []
                    for day in days {
                        for metric in HealthMetric.allCases where try await value(metric.rawValue, day, nil) != nil {
                            covered.insert(day)
                            break
                        }
                    }
                    return covered
                })
        }
    }

    let store: any PerAccountStore
    let clock: DayClock
    let values: Values

    /// Judges with the store's own day values, or with `values` when given.
    public init(store: any PerAccountStore, clock: DayClock, values: Values? = nil) {
        self.store = store
        self.clock = clock
        self.values = values ?? .stored(in: store)
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
        var covered: Set<LocalDay>?
        for habit in try await store.habits() where habit.kind == .metric {
            guard let goal = habit.goal else { continue }
            // A limit can still be broken until the day is over.
            let days = candidates.filter {
                $0 >= habit.createdDay && (goal.comparison == .atMost ? $0 < today : $0 <= today)
            }.sorted()
            guard !days.isEmpty else { continue }
            var totals = try await values.of(goal.metric, days, goal.activity)
            if goal.comparison == .atMost {
                // No workouts on a day the data covers counts as zero against a limit; a day with no
                // data at all (the phone has not sent it yet) is not judged.
                if covered == nil { covered = try await values.covered(candidates.sorted()) }
                for day in days where totals[day] == nil && covered!.contains(day) { totals[day] = 0 }
            }
            // Older days are completed silently, all in one write; today and yesterday with their event.
            let notified = today.adding(days: -Self.notifiedDays)
            let met = days.compactMap { day in
                totals[day].flatMap { total in
                    goal.isMet(by: total)
                        ? Entry(
                            habitID: habit.id, day: day, status: .done, value: total, source: .metric,
                            note: goal.summary, recordedAt: now, zone: clock.zoneIdentifier) : nil
                }
            }
            if stop() { return outcome }
            let silent = met.filter { $0.day <= notified }
            for (entry, recorded) in zip(silent, try await store.record(silent)) {
                outcome.count(recorded, habit: habit, entry: entry, target: goal.target)
            }
            for entry in met where entry.day > notified {
                if stop() { return outcome }
                try await complete(
                    habit, goal, entry, today: today, now: now, realTime: realTime, delivery: delivery,
                    outcome: &outcome, claimed: claimed)
            }
        }
        try await store.judgedMetricDays(marks)
        return outcome
    }

    /// Records the met goal's entry of today or yesterday (a manual one wins) and claims its event.
    private func complete(
        _ habit: Habit, _ goal: MetricGoal, _ entry: Entry, today: LocalDay, now: Date, realTime: Date,
        delivery: Delivery, outcome: inout Outcome, claimed: (NotificationClaim) async throws -> Void
    ) async throws {
        let key = NotificationEvent.key(.goalMet, habitID: habit.id)
        let existing = try await store.entry(habitID: habit.id, day: entry.day)
        if existing?.status == .done || existing?.source == .manual,
            try await store.settledNotificationKeys([key], day: entry.day).contains(key)
        {
            return
        }
        let value = entry.value ?? 0
        let event = NotificationEvent(
            event: .goalMet, habit: habit.name, day: entry.day, goal: goal, value: value,
            message: Self.message(habit, goal, value, day: entry.day, today: today),
            at: NotificationEvent.timestamp(now, in: clock))
        var request = ClaimRequest(key: key, day: entry.day, event: event.json(), entry: entry)
        var lease: TimeInterval = 0
        switch delivery {
        case .now(let held): lease = held
        case .queued: request.queued = true
        }
        let decision = try await store.decideAndClaim(request, at: realTime, lease: lease)
        if decision.queued { outcome.queued += 1 }
        if let claim = decision.claim { try await claimed(claim) }
        if let recorded = decision.entryOutcome { outcome.count(recorded, habit: habit, entry: entry, target: goal.target) }
    }

    /// "Walk: 8,412 steps today, goal at least 8,000 steps met."
    static func message(_ habit: Habit, _ goal: MetricGoal, _ value: Double, day: LocalDay, today: LocalDay) -> String {
        let amount = HealthMetric(name: goal.metric).map { GoalTarget.format(value, for: $0) } ?? "\(value)"
        let when = day == today ? "today" : day == today.adding(days: -1) ? "yesterday" : "on \(day)"
        return "\(habit.name): \(amount) \(when), goal \(goal.summary) met."
    }
}
