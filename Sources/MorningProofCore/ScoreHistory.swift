extension HabitTimeline {
    /// The score (0 to 1) at the end of each day from the first day to the last, for a chart of it
    /// (of a timeline resumed from a checkpoint: from the day after it).
    public var dailyScores: [(day: LocalDay, score: Double)] {
        let resuming = prior.map { (index: origin.days(to: $0.through) + 1, score: $0.score) }
        let first = resuming?.index ?? 0
        return HabitScore.scores(
            marks: marks, todayIndex: origin.days(to: today), frequency: schedule.frequency, resuming: resuming
        )
        .enumerated().map { (origin.adding(days: first + $0.offset), $0.element) }
    }

    /// The score at the end of each day of `range` that has one, by day: a chart's or a report's points.
    public func scoresByDay(in range: ClosedRange<LocalDay>) -> [LocalDay: Double] {
        Dictionary(
            dailyScores.filter { range.contains($0.day) }.map { ($0.day, $0.score) }, uniquingKeysWith: { _, last in last })
    }
}
