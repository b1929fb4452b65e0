import Foundation
import MorningProofCore
import MorningProofStore

extension Habit {
    /// The name as text output shows it: any control character as a visible escape.
    var shownName: String { UserText.visible(name) }
}

/// A habit as scripts see it.
struct HabitJSON: Encodable {
    var name: String
    var kind: String
    var schedule: String
    var remindAt: String?
    var required: Bool
    var note: String?
    var archived: Bool
    var createdDay: String
    var goal: GoalJSON?
    var state: String?
    var currentStreak: Int?
    var longestStreak: Int?
    var daysUntilBreak: Int?
    var score: Double?

    init(_ habit: Habit, progress: HabitProgress? = nil) {
        name = habit.name
        kind = habit.kind.rawValue
        schedule = habit.schedule.summary
        remindAt = habit.remindAt.map(formatClockTime)
        required = habit.required
        note = habit.note
        archived = habit.archived
        createdDay = habit.createdDay.description
        goal = habit.goal.map(GoalJSON.init)
        if let progress {
            state = progress.state.rawValue
            currentStreak = progress.timeline.currentStreak
            longestStreak = progress.timeline.longestStreak.length
            daysUntilBreak = progress.timeline.daysUntilBreak
            score = rounded(progress.timeline.score)
        }
    }
}

/// Rounds a share to four decimals for output.
func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
