import Foundation
import MorningProofCore

/// Habits and entries from the columns both engines store them in: the same fallbacks for a value
/// no release of this program writes, whichever engine read it.
extension Habit {
    /// The habit a stored row holds: an unknown kind reads as manual, an unknown schedule as daily,
    /// a goal only when its metric, comparison and target are all there.
    public static func stored(
        id: Int64, name: String, kind: String, schedule: String, remindAt: Int?, required: Bool, note: String?,
        archived: Bool, goalMetric: String?, goalComparison: String?, goalTarget: Double?, goalActivity: String?,
        createdDay: String, createdAt: Date
    ) -> Habit {
        var goal: MetricGoal?
        if let goalMetric, let comparison = goalComparison.flatMap(MetricGoal.Comparison.init(rawValue:)),
            let goalTarget
        {
            goal = MetricGoal(metric: goalMetric, comparison: comparison, target: goalTarget, activity: goalActivity)
        }
        return Habit(
            id: id, name: name, kind: HabitKind(rawValue: kind) ?? .manual,
            schedule: Schedule(storageValue: schedule) ?? .daily, remindAt: remindAt, required: required, note: note,
            archived: archived, goal: goal, createdDay: LocalDay(createdDay) ?? LocalDay(dayNumber: 0),
            createdAt: createdAt)
    }
}

extension Entry {
    /// The entry a stored row holds, or nil for a row no release of this program writes (an
    /// unknown day or status); an unknown source reads as manual.
    public static func stored(
        habitID: Int64, day: String, status: String, value: Double?, source: String, note: String?, recordedAt: Date,
        zone: String
    ) -> Entry? {
        guard let day = LocalDay(day), let status = EntryStatus(rawValue: status) else { return nil }
        return Entry(
            habitID: habitID, day: day, status: status, value: value, source: EntrySource(rawValue: source) ?? .manual,
            note: note, recordedAt: recordedAt, zone: zone)
    }
}
