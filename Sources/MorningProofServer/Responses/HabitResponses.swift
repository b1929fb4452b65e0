import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// A habit as the API gives it: its id, the fields of `habit show --json`, and for a metric habit
/// today's value (`todayValue`, and in words `todayText`), left out when the day has no data.
struct HabitResourceJSON: Encodable, Sendable {
    let id: Int64
    let habit: HabitJSON
    var today: (value: Double, text: String)?
    /// After a change that made it a photo habit and reopened today's done: what to do.
    var notice: String?

    init(_ habit: Habit, progress: HabitProgress, today: (value: Double, text: String)? = nil) {
        id = habit.id
        self.habit = HabitJSON(habit, progress: progress)
        self.today = today
    }

    /// The habit with its progress, today's metric value and an edit's notice, as the service gives them.
    init(_ view: HabitView) {
        self.init(view.habit, progress: view.progress, today: view.today)
        notice = view.notice
    }

    func encode(to encoder: Encoder) throws {
        try habit.encode(to: encoder)
        enum Keys: String, CodingKey { case id, todayValue, todayText, notice }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(today?.value, forKey: .todayValue)
        try container.encodeIfPresent(today?.text, forKey: .todayText)
        try container.encodeIfPresent(notice, forKey: .notice)
    }
}
