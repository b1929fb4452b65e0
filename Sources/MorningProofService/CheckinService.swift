import Foundation
import MorningProofCore
import MorningProofStore

/// The check-in habit with its texts and one day's answer.
public struct Checkin: Sendable {
    public var habit: Habit
    public var texts: CheckinTexts
    /// The answer of the day it was loaded for; nil when unanswered.
    public var answer: CheckinAnswer?

    public var state: CheckinState {
        guard let answer else { return .unanswered }
        return answer.yes ? .yes : .no
    }
}

/// What `checkin status` reports.
public struct CheckinStatus: Sendable {
    public var day: LocalDay
    /// Nil when no check-in is set up.
    public var checkin: Checkin?
    public var lastAnsweredAt: Date?
    public var currentStreak: Int

    /// True when a check-in exists and the day has no answer yet.
    public var shouldAsk: Bool { checkin != nil && checkin?.answer == nil }
}

/// What answering the check-in did.
public struct CheckinAnswered: Sendable {
    public var day: LocalDay
    public var outcome: CheckinOutcome
    /// The day's answer after this one: a yes stands, so a no can leave it yes.
    public var yes: Bool
    public var currentStreak: Int
    public var texts: CheckinTexts
}

/// What `checkin setup` did.
public struct CheckinSetup: Sendable {
    public var habit: Habit
    public var created: Bool
    public var texts: CheckinTexts
}

/// The daily check-in: set it up, ask it, answer it. Every front end goes through here.
public struct CheckinService: Sendable {
    /// The name `setup` gives the habit.
    public static let habitName = "Morning check-in"

    public let database: any HabitStore
    public let clock: DayClock

    public init(database: any HabitStore, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// The first active habit of kind `checkin`, if any.
    public func habit() throws -> Habit? {
        try database.habits().first { $0.kind == .checkin }
    }

    /// The check-in with the answer of the day `now` falls on, or nil when none is set up.
    public func load(now: Date) throws -> Checkin? {
        guard let habit = try habit() else { return nil }
        return Checkin(
            habit: habit, texts: try texts(), answer: try database.checkinAnswer(habitID: habit.id, day: clock.day(at: now)))
    }

    /// The check-in, or a usage error that says how to set one up.
    public func require(now: Date) throws -> Checkin {
        guard let checkin = try load(now: now) else {
            throw MorningProofError.usage("no check-in is set up yet\(hint: .setUpCheckin)")
        }
        return checkin
    }

    /// The stored texts; a text never set falls back to the general preset's.
    public func texts() throws -> CheckinTexts {
        let fallback = CheckinTexts.preset(.general)
        let settings = try database.settings()
        return CheckinTexts(
            question: settings[SettingKey.checkinQuestion] ?? fallback.question,
            verse: settings[SettingKey.checkinVerse] ?? fallback.verse,
            suggestions: settings[SettingKey.checkinSuggestions].map(CheckinTexts.parseSuggestions)
                ?? fallback.suggestions)
    }

    /// Today's state of the check-in, its streak and when it was last answered.
    public func status(now: Date) throws -> CheckinStatus {
        let today = clock.day(at: now)
        guard let checkin = try load(now: now) else {
            return CheckinStatus(day: today, checkin: nil, lastAnsweredAt: nil, currentStreak: 0)
        }
        return CheckinStatus(
            day: today, checkin: checkin,
            lastAnsweredAt: try database.lastCheckinAnswer(habitID: checkin.habit.id)?.answeredAt,
            currentStreak: try database.progress(of: checkin.habit, today: today, need: .summary).timeline.currentStreak)
    }

    /// Answers the check-in for the day `now` falls on (`CheckinOutcome.of`: a yes stands for the day).
    public func answer(yes: Bool, now: Date) throws -> CheckinAnswered {
        let checkin = try require(now: now)
        let today = clock.day(at: now)
        let outcome = try database.answerCheckin(
            habitID: checkin.habit.id, day: today, yes: yes, at: now, zone: clock.zoneIdentifier)
        let stored = try database.checkinAnswer(habitID: checkin.habit.id, day: today)
        return CheckinAnswered(
            day: today, outcome: outcome, yes: stored?.yes == true,
            currentStreak: try database.progress(of: checkin.habit, today: today, need: .summary).timeline.currentStreak,
            texts: checkin.texts)
    }

    /// Creates the check-in habit if there is none, and sets its texts from `preset` (the general one
    /// for a new check-in without a preset) and `question`.
    public func setup(preset: CheckinTexts.Preset?, question: String?, now: Date) throws -> CheckinSetup {
        if let question {
            try UserText.validate(question, field: .question, maxLength: UserText.checkinTextMaxLength)
            if UserText.isBlank(question) {
                throw MorningProofError.usage("\(field: .question) needs some words")
            }
        }
        let existing = try habit()
        let habit = try existing
            ?? database.addHabit(
                Habit(
                    name: Self.habitName, kind: .checkin, schedule: .daily, createdDay: clock.day(at: now),
                    createdAt: now))
        if let preset = preset ?? (existing == nil ? .general : nil) {
            let texts = CheckinTexts.preset(preset)
            try database.setSetting(SettingKey.checkinQuestion, to: texts.question)
            try database.setSetting(SettingKey.checkinVerse, to: texts.verse)
            try database.setSetting(SettingKey.checkinSuggestions, to: CheckinTexts.joinSuggestions(texts.suggestions))
        }
        if let question {
            try database.setSetting(SettingKey.checkinQuestion, to: question.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return CheckinSetup(habit: habit, created: existing == nil, texts: try texts())
    }

    /// Clears the answer (and its done entry) of the day `now` falls on; returns that day and what
    /// the answer was (nil: none).
    public func reset(now: Date) throws -> (day: LocalDay, was: Bool?) {
        let checkin = try require(now: now)
        let today = clock.day(at: now)
        let cleared = try database.clearDay(habitID: checkin.habit.id, day: today)
        return (today, cleared.answer?.yes ?? (cleared.entry?.status == .done ? true : nil))
    }

    /// The habit a name given to `undo` means: `checkin` (or `check-in`) names the check-in habit when
    /// no habit is called that.
    public func habitName(for text: String) throws -> String {
        guard ["checkin", "check-in"].contains(text.lowercased()), (try? database.findHabit(named: text)) == nil,
            let habit = try habit()
        else { return text }
        return habit.name
    }
}
