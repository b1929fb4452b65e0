extension HabitTimeline {
    /// The score (0 to 1) at the end of each day from the first day to the last, for a chart of it.
    public var dailyScores: [(day: LocalDay, score: Double)] {
        HabitScore.scores(marks: marks, todayIndex: firstDay.days(to: today), frequency: schedule.frequency)
            .enumerated().map { (firstDay.adding(days: $0.offset), $0.element) }
    }
}
