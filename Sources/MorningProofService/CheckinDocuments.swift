import Foundation
import MorningProofCore

/// `checkin status --json` and the core of `GET /api/checkin`.
public struct CheckinStatusJSON: Encodable, Sendable {
    public var day: String
    /// The instant `day` ends (the next day's start, DST included), in the account's zone: a phone
    /// that painted the day from what it kept tells a new day by it, with no time-zone database.
    public var dayEndsAt: String
    /// False when no check-in is set up.
    public var configured: Bool
    /// True when a check-in exists and today has no answer yet.
    public var shouldAsk: Bool
    public var answeredToday: Bool
    public var answeredYes: Bool
    /// "yes", "no", or nil.
    public var answer: String?
    public var lastAnsweredAt: String?
    public var currentStreak: Int
    public var question: String?

    /// Every field is written, `null` included, so scripts can rely on the keys.
    public func encode(to encoder: Encoder) throws {
        enum Keys: String, CodingKey {
            case day, dayEndsAt, configured, shouldAsk, answeredToday, answeredYes, answer, lastAnsweredAt, currentStreak, question
        }
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(day, forKey: .day)
        try c.encode(dayEndsAt, forKey: .dayEndsAt)
        try c.encode(configured, forKey: .configured)
        try c.encode(shouldAsk, forKey: .shouldAsk)
        try c.encode(answeredToday, forKey: .answeredToday)
        try c.encode(answeredYes, forKey: .answeredYes)
        try c.encode(answer, forKey: .answer)
        try c.encode(lastAnsweredAt, forKey: .lastAnsweredAt)
        try c.encode(currentStreak, forKey: .currentStreak)
        try c.encode(question, forKey: .question)
    }

    public init(_ status: CheckinStatus, clock: DayClock) {
        let zone = clock.timeZone
        let answer = status.checkin?.answer
        day = status.day.description
        dayEndsAt = ISOInstant.format(clock.start(of: status.day.adding(days: 1)), in: zone)
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

/// What `checkin yes|no` and `POST /api/checkin` answer: the day's answer after this one (a yes
/// stands) and what this one did.
public struct CheckinAnswerJSON: Encodable, Sendable {
    public var day: String
    public var answer: String
    /// "answered", "changed to yes", "unchanged", "yes stands", or "superseded" (an answer sent with
    /// its instant lost to a later change of the day, made on another device).
    public var result: String
    public var currentStreak: Int

    public init(_ answered: CheckinAnswered) {
        day = answered.day.description
        answer = answered.yes ? "yes" : "no"
        switch answered.outcome {
        case .answered: result = "answered"
        case .changedToYes: result = "changed to yes"
        case .unchanged: result = "unchanged"
        case .yesStands: result = "yes stands"
        case .superseded: result = "superseded"
        }
        currentStreak = answered.currentStreak
    }
}

/// What `checkin setup` and `POST /api/checkin/setup` answer.
public struct CheckinSetupJSON: Encodable, Sendable {
    public var habit: String
    public var created: Bool
    public var question: String
    public var verse: String
    public var suggestions: [String]

    public init(_ setup: CheckinSetup) {
        habit = setup.habit.name
        created = setup.created
        question = setup.texts.question
        verse = setup.texts.verse
        suggestions = setup.texts.suggestions
    }
}

