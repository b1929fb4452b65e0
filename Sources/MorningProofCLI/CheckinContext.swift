import Foundation
import MorningProofCore
import MorningProofStore

/// The check-in habit with its texts and today's answer, as of a session.
struct CheckinContext {
    /// The name `checkin setup` gives the habit.
    static let habitName = "Morning check-in"

    let habit: Habit
    let texts: CheckinTexts
    let today: CheckinAnswer?

    /// The first active habit of kind `checkin`, if any.
    static func habit(in session: Session) throws -> Habit? {
        try session.database.habits().first { $0.kind == .checkin }
    }

    /// The check-in, or nil when none is set up.
    static func load(_ session: Session) throws -> CheckinContext? {
        guard let habit = try habit(in: session) else { return nil }
        return CheckinContext(
            habit: habit, texts: try texts(session.database),
            today: try session.database.checkinAnswer(habitID: habit.id, day: session.today))
    }

    /// The check-in, or a usage error that says how to set one up.
    static func require(_ session: Session) throws -> CheckinContext {
        guard let context = try load(session) else {
            throw MorningProofError.usage(
                "no check-in is set up yet; create one with: morningproof checkin setup --preset faith (or --preset general)"
            )
        }
        return context
    }

    /// Lets `undo checkin` name the check-in habit by its kind when no habit is called that.
    static func habitName(for text: String, in session: Session) throws -> String {
        guard ["checkin", "check-in"].contains(text.lowercased()),
            (try? session.database.findHabit(named: text)) == nil,
            let habit = try habit(in: session)
        else { return text }
        return habit.name
    }

    /// The stored texts; a text never set falls back to the general preset's.
    static func texts(_ database: AppDatabase) throws -> CheckinTexts {
        let fallback = CheckinTexts.preset(.general)
        let settings = try database.settings()
        return CheckinTexts(
            question: settings[SettingKey.checkinQuestion] ?? fallback.question,
            verse: settings[SettingKey.checkinVerse] ?? fallback.verse,
            suggestions: settings[SettingKey.checkinSuggestions].map(CheckinTexts.parseSuggestions)
                ?? fallback.suggestions)
    }

    var state: CheckinState {
        guard let today else { return .unanswered }
        return today.yes ? .yes : .no
    }
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

    init(session: Session, context: CheckinContext?) throws {
        day = session.today.description
        configured = context != nil
        answeredToday = context?.today != nil
        answeredYes = context?.today?.yes == true
        answer = context?.today.map { $0.yes ? "yes" : "no" }
        shouldAsk = configured && !answeredToday
        question = context?.texts.question
        if let context {
            lastAnsweredAt = try session.database.lastCheckinAnswer(habitID: context.habit.id).map {
                ISOInstant.format($0.answeredAt, in: session.clock.timeZone)
            }
            currentStreak = try session.database.progress(of: context.habit, today: session.today).timeline
                .currentStreak
        } else {
            currentStreak = 0
        }
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
    /// Stores an answer and prints what happened, in calm words.
    func answerCheckin(_ context: CheckinContext, yes: Bool) throws {
        let outcome = try database.answerCheckin(
            habitID: context.habit.id, day: today, yes: yes, at: now, zone: clock.zoneIdentifier)
        let streak = try database.progress(of: context.habit, today: today).timeline.currentStreak
        let stored = try database.checkinAnswer(habitID: context.habit.id, day: today)
        let result: String
        switch outcome {
        case .answered: result = "answered"
        case .changedToYes: result = "changed to yes"
        case .unchanged: result = "unchanged"
        case .yesStands: result = "yes stands"
        }
        if json {
            return try Console.json(
                CheckinAnswerJSON(
                    day: today.description, answer: stored?.yes == true ? "yes" : "no", result: result,
                    currentStreak: streak))
        }
        let days = "\(streak) \(streak == 1 ? "day" : "days")"
        switch (outcome, yes) {
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
                outcome == .unchanged ? "Today's check-in is still no." : "Check-in recorded: no. That is all right.")
            printEncouragement(context.texts)
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
