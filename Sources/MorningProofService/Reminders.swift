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
        var message = "\(habit.name): not done yet today"
        if let goal = habit.goal, let metric = HealthMetric(name: goal.metric) {
            amount = try await value(goal)
            message += " (goal \(goal.summary); \(GoalTarget.format(amount ?? 0, for: metric)) so far)"
        }
        let event = NotificationEvent(
            event: .reminder, habit: habit.name, day: today, goal: habit.goal, value: amount, message: message + ".",
            at: NotificationEvent.timestamp(now, in: clock))
        return ClaimRequest(key: key, day: today, event: event.json(), condition: .habitHasNoEntry(habitID: habit.id))
    }
}
