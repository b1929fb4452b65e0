/// How far a habit with a target over a period (K times a week or a month, K in D days) is in the
/// period holding today: "2 of 3 this week". Counted by the rule the streak's judgement applies
/// (`CoverageRules.tally`): the period is covered once `done` reaches `target`.
public struct PeriodProgress: Sendable, Equatable {
    /// Done days in the period so far (recorded days after today included, after a trip west).
    public let done: Int
    /// The done days the period needs: K, lowered by skipped and travel days and by days before
    /// the habit's first day to what the period can hold.
    public let target: Int
    /// The period's first and last day: the calendar week (from the account's week start) or month,
    /// or the D days ending today.
    public let start: LocalDay
    public let end: LocalDay
    /// "this week", "this month" or "in the last 10 days".
    public let span: String

    /// "2 of 3 this week".
    public var words: String { "\(done) of \(target) \(span)" }
}

extension HabitTimeline {
    /// The progress of the period holding today; nil for a schedule without one (daily, every N days).
    public var period: PeriodProgress? {
        let k: Int, start: LocalDay, end: LocalDay, span: String
        switch schedule {
        case .daily, .everyDays: return nil
        case .timesPerWeek(let times):
            (k, start, span) = (times, today.startOfWeek(weekStart: weekStart), "this week")
            end = start.adding(days: 6)
        case .timesPerMonth(let times):
            (k, start, span) = (times, today.startOfMonth, "this month")
            end = start.adding(days: 40).startOfMonth.adding(days: -1)
        case .timesInDays(let times, let days):
            (k, start, end, span) = (times, today.adding(days: 1 - days), today, "in the last \(days) days")
        }
        // The judgement counts a period from the habit's first day on; a resumed timeline knows
        // the whole period holding today (`resumePlan`).
        let from = max(start, firstDay)
        guard from <= end else { return PeriodProgress(done: 0, target: 0, start: start, end: end, span: span) }
        var marks: [DayMark] = []
        var day = from
        while day <= min(end, lastDay) {
            if let status = status(on: day) { marks.append(status.mark) }
            day = day.adding(days: 1)
        }
        let (done, target) = CoverageRules.tally(k, marks, days: from.days(to: end) + 1)
        return PeriodProgress(done: done, target: target, start: start, end: end, span: span)
    }
}
