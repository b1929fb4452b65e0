import MorningProofCore
import MorningProofStoreContract
import Testing

/// The check both engines' habit-state tests make: what a reader gets from a habit's stored state
/// (`.summary`, `.days(from:)`) must be what the whole history gives.
public enum HabitStateAgreement {
    /// What every reader can see of a habit's progress, to compare two readings at once.
    public struct Figures: Equatable, CustomStringConvertible {
        let current: Int, longest: Int, longestStart: LocalDay?, longestEnd: LocalDay?, total: Int, score: Double
        let untilBreak: Int, state: TodayState, rate7: Double?, rate30: Double?, days: [DayStatus]

        /// `from`: the first day compared one by one (and the completion rates, when a month back).
        public init(_ progress: HabitProgress, from: LocalDay) {
            let t = progress.timeline
            let longest = t.longestStreak
            (current, self.longest, longestStart, longestEnd) = (t.currentStreak, longest.length, longest.start, longest.end)
            (total, score, untilBreak, state) = (t.totalDone, t.score, t.daysUntilBreak, progress.state)
            let rates = from <= t.today.adding(days: -29)
            (rate7, rate30) = rates ? (t.completionRate(lastDays: 7), t.completionRate(lastDays: 30)) : (nil, nil)
            days = t.days.filter { $0.day >= from }
        }

        public var description: String {
            "current \(current) longest \(longest) \(String(describing: longestStart))-\(String(describing: longestEnd)) "
                + "total \(total) score \(score) untilBreak \(untilBreak) \(state) rates \(String(describing: rate7))/"
                + "\(String(describing: rate30)) days \(days)"
        }
    }

    /// Compares what `.summary`, `.days(from:)` and status (`habitsToday`) readers get with the whole
    /// history, as of `today`, and status' entries with `entries(on:)`:
    /// records the first disagreement and returns nil, else how many habits were read from their state.
    @discardableResult
    public static func expect(
        _ store: any HabitStore & EntryStore, today: LocalDay, _ context: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Int? {
        let habits = try await store.habits(includeArchived: false)
        let whole = try await store.progress(of: habits, today: today, need: .all)
        let from = today.adding(days: -30)
        let summary = try await store.progress(of: habits, today: today, need: .summary)
        let days = try await store.progress(of: habits, today: today, need: .days(from: from))
        // What status reads at once: the same habits, the same figures, the day's entries of them.
        let status = try await store.habitsToday(today)
        let entries = try await store.entries(on: today).filter { entry in habits.contains { $0.id == entry.key } }
        #expect(status.habits.map(\.habit) == habits, "status' habits \(context())", sourceLocation: sourceLocation)
        #expect(status.entries == entries, "status' entries of \(today) \(context())", sourceLocation: sourceLocation)
        guard status.habits.count == habits.count, status.entries == entries else { return nil }
        for (index, progress) in whole.enumerated() {
            let far = progress.timeline.lastDay.adding(days: 1)
            guard Figures(summary[index], from: far) == Figures(progress, from: far),
                Figures(status.habits[index], from: far) == Figures(progress, from: far),
                Figures(days[index], from: from) == Figures(progress, from: from)
            else {
                Issue.record(
                    """
                    \(progress.habit.name) \(progress.habit.schedule) today \(today) \(context()):
                    whole   \(Figures(progress, from: from))
                    summary \(Figures(summary[index], from: far))
                    status  \(Figures(status.habits[index], from: far))
                    days    \(Figures(days[index], from: from))
                    """, sourceLocation: sourceLocation)
                return nil
            }
        }
        return (summary + days).count(where: { $0.timeline.knownFrom > $0.timeline.firstDay })
    }
}
