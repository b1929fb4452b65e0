import Foundation
import MorningProofCore
import MorningProofStoreContract

/// The reminder rule, one for every front end (`check`, `watch`, the server's pass): a habit's
/// `habit.reminder` is due once `remindAt` has passed in the account's zone on the habit's day, while
/// the habit is due and empty that day; claimed once per habit and day.
public enum ReminderRule {
    /// True when `remindAt` (minutes after midnight) has passed at `now` on `today`. A reminder
    /// before the day start (01:00 with days starting at 04:00) falls on the next date. A time that
    /// a spring-forward day skips (02:30) is due at the first instant past it; one that a fall-back
    /// day repeats, at its first occurrence (`DayClock.instant`).
    public static func isDue(remindAt: Int, clock: DayClock, today: LocalDay, now: Date) -> Bool {
        let date = remindAt < clock.dayStart ? today.adding(days: 1) : today
        return now >= clock.instant(on: date, secondsAfterMidnight: remindAt * 60)
    }

    /// The claim request for `habit`'s reminder at `now`, or nil when none is due: the time has not
    /// come, the reminder of today is settled, or the habit is not pending today (done, skipped, a
    /// travel day, or covered by its schedule). `value` gives a metric goal's total so far. A caller
    /// that already knows the reminder is not settled (the server's pass, which asked for all of them
    /// at once) passes `knownUnsettled` and saves the read.
    public static func request(
        for habit: Habit, in store: any EntryStore & NotificationStore, clock: DayClock, now: Date,
        knownUnsettled: Bool = false, value: (MetricGoal) async throws -> Double?
    ) async throws -> ClaimRequest? {
        let today = clock.day(at: now)
        guard let remindAt = habit.remindAt, habit.createdDay <= today,
            isDue(remindAt: remindAt, clock: clock, today: today, now: now)
        else { return nil }
        let key = NotificationEvent.key(.reminder, habitID: habit.id)
        if !knownUnsettled, try await store.settledNotificationKeys([key], day: today).contains(key) { return nil }
        guard try await store.progress(of: habit, today: today, need: .summary).state == .pending else { return nil }
        var amount: Double?
        if let goal = habit.goal, HealthMetric(name: goal.metric) != nil { amount = try await value(goal) }
        let event = self.event(for: habit, today: today, value: amount, clock: clock, now: now)
        return ClaimRequest(key: key, day: today, event: event.json(), condition: .habitHasNoEntry(habitID: habit.id))
    }

    /// The reminder of a daily habit with no goal due at `now`, for the server's pass to claim with
    /// other accounts' (`ReminderClaimStore`): such a habit is pending exactly when it has no entry
    /// today and today is no travel day, which the store checks as it claims. Nil for any other
    /// habit (its schedule or goal needs `request`), or when none is due.
    public static func firstReminder(for habit: Habit, accountID: Int64, clock: DayClock, now: Date) -> FirstReminder? {
        let today = clock.day(at: now)
        guard habit.schedule == .daily, habit.goal == nil, let remindAt = habit.remindAt, habit.createdDay <= today,
            isDue(remindAt: remindAt, clock: clock, today: today, now: now)
        else { return nil }
        let event = event(for: habit, today: today, value: nil, clock: clock, now: now)
        return FirstReminder(
            accountID: accountID, habitID: habit.id, key: NotificationEvent.key(.reminder, habitID: habit.id),
            day: today,
            event: event.json())
    }

    /// "Read: not done yet today.", with a metric goal's total so far.
    static func event(for habit: Habit, today: LocalDay, value amount: Double?, clock: DayClock, now: Date)
        -> NotificationEvent
    {
        var message = "\(habit.name): not done yet today"
        if let goal = habit.goal, let metric = HealthMetric(name: goal.metric) {
            message += " (goal \(goal.summary); \(GoalTarget.format(amount ?? 0, for: metric)) so far)"
        }
        return NotificationEvent(
            event: .reminder, habit: habit.name, day: today, goal: habit.goal, value: amount, message: message + ".",
            at: NotificationEvent.timestamp(now, in: clock))
    }
}
