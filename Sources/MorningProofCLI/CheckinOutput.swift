import Foundation
import MorningProofCore
import MorningProofService

extension Session {
    /// The check-in use cases on this session's database and clock.
    var checkins: CheckinService { CheckinService(database: database, clock: clock) }
}

/// `checkin status --json`.
struct CheckinStatusJSON: Encodable {
    var day: String
    /// False when no check-in is set up.
    var configured: Bool
    /// True when a check-in exists and today has no answer yet.
    var shouldAsk: Bool
    var answeredToday: Bool
    var answeredYes: Bool
    /// "yes", "no", or nil.
    var answer: String?
    var lastAnsweredAt: String?
    var currentStreak: Int
    var question: String?

    /// Every field is written, `null` included, so scripts can rely on the keys.
    func encode(to encoder: Encoder) throws {
        enum Keys: String, CodingKey {
            case day, configured, shouldAsk, answeredToday, answeredYes, answer, lastAnsweredAt, currentStreak, question
        }
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(day, forKey: .day)
        try c.encode(configured, forKey: .configured)
        try c.encode(shouldAsk, forKey: .shouldAsk)
        try c.encode(answeredToday, forKey: .answeredToday)
        try c.encode(answeredYes, forKey: .answeredYes)
        try c.encode(answer, forKey: .answer)
        try c.encode(lastAnsweredAt, forKey: .lastAnsweredAt)
        try c.encode(currentStreak, forKey: .currentStreak)
        try c.encode(question, forKey: .question)
    }

    init(_ status: CheckinStatus, zone: TimeZone) {
        let answer = status.checkin?.answer
        day = status.day.description
        configured = status.checkin != nil
        answeredToday = answer != nil
        answeredYes = answer?.yes == true
        self.answer = answer.map { $0.yes ? "yes" : "no" }
        shouldAsk = status.shouldAsk
        question = status.checkin?.texts.question
        lastAnsweredAt = status.lastAnsweredAt.map { ISOInstant.format($0, in: zone) }
        currentStreak = status.currentStreak
    }
}

/// What `checkin yes|no` and the interactive question print.
struct CheckinAnswerJSON: Encodable {
    var day: String
    var answer: String
    var result: String
    var currentStreak: Int
}

extension Session {
    /// Answers today's check-in and prints what happened, in calm words.
    func answerCheckin(yes: Bool) throws {
        let answered = try checkins.answer(yes: yes, now: now)
        let result: String
        switch answered.outcome {
        case .answered: result = "answered"
        case .changedToYes: result = "changed to yes"
        case .unchanged: result = "unchanged"
        case .yesStands: result = "yes stands"
        }
        let streak = answered.currentStreak
        if json {
            return try Console.json(
                CheckinAnswerJSON(
                    day: answered.day.description, answer: answered.yes ? "yes" : "no", result: result,
                    currentStreak: streak))
        }
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
