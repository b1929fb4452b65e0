import Foundation
import MorningProofCore
import MorningProofService

extension Session {
    /// The check-in use cases on this session's database and clock.
    var checkins: CheckinService { CheckinService(database: database, clock: clock) }
}

extension Session {
    /// Answers today's check-in and prints what happened, in calm words.
    func answerCheckin(yes: Bool) async throws {
        let answered = try await checkins.answer(yes: yes, now: now)
        let streak = answered.currentStreak
        if json { return try Console.json(CheckinAnswerJSON(answered)) }
        let days = "\(streak) \(streak == 1 ? "day" : "days")"
        switch (answered.outcome, yes) {
        case (.yesStands, _):
            Console.out("Today's check-in is already yes, and a yes stands for the day. Streak: \(days).")
        case (.unchanged, true):
            Console.out("Today's check-in is already yes. Streak: \(days).")
        case (.changedToYes, _):
            Console.out("Welcome back: today's check-in is now yes. Streak: \(days).")
        case (_, true):
            Console.out("Check-in recorded: yes. Streak: \(days).")
        case (_, false):
            Console.out(
                answered.outcome == .unchanged
                    ? "Today's check-in is still no." : "Check-in recorded: no. That is all right.")
            printEncouragement(answered.texts)
        }
    }

    /// The suggestions and how to change a no to yes later today.
    func printEncouragement(_ texts: CheckinTexts) {
        if !texts.suggestions.isEmpty {
            Console.out("There is still time today. You could:")
            for suggestion in texts.suggestions { Console.out("  • \(UserText.visible(suggestion))") }
        }
        Console.out("When you have done it, run: morningproof checkin yes")
    }
}
