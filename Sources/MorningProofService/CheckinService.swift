import Foundation
import MorningProofCore
import MorningProofStoreContract

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

    public let database: any AccountData
    public let clock: DayClock

    public init(database: any AccountData, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// The first active habit of kind `checkin`, if any.
    public func habit() async throws -> Habit? {
        try await database.habits().first { $0.kind == .checkin }
    }

    /// The check-in with the answer of the day `now` falls on, or nil when none is set up.
    public func load(now: Date) async throws -> Checkin? {
        guard let habit = try await habit() else { return nil }
        return await Checkin(
            habit: habit, texts: try texts(),
            answer: try await database.checkinAnswer(habitID: habit.id, day: clock.day(at: now)))
    }

    /// What `answer`, `reset` and `require` throw while no check-in is set up: a prerequisite
    /// missing (the API's 404 `no_checkin`, the CLI's 64) that says how to set one up, each front
    /// end in its own words.
    public static let notSetUp = MorningProofError(
        .notFound, code: "no_checkin", "no check-in is set up yet\(hint: .setUpCheckin)")

    /// The check-in, or `notSetUp`.
    public func require(now: Date) async throws -> Checkin {
        guard let checkin = try await load(now: now) else { throw Self.notSetUp }
        return checkin
    }

    /// The stored texts; a text never set falls back to the general preset's.
    public func texts() async throws -> CheckinTexts {
        let fallback = CheckinTexts.preset(.general)
        let settings = try await database.settings()
        return CheckinTexts(
            question: settings[SettingKey.checkinQuestion] ?? fallback.question,
            verse: settings[SettingKey.checkinVerse] ?? fallback.verse,
            suggestions: settings[SettingKey.checkinSuggestions].map(CheckinTexts.parseSuggestions)
                ?? fallback.suggestions)
    }

    /// Today's state of the check-in, its streak and when it was last answered.
    public func status(now: Date) async throws -> CheckinStatus {
        let today = clock.day(at: now)
        guard let checkin = try await load(now: now) else {
            return CheckinStatus(day: today, checkin: nil, lastAnsweredAt: nil, currentStreak: 0)
        }
        return CheckinStatus(
            day: today, checkin: checkin,
            lastAnsweredAt: try await database.lastCheckinAnswer(habitID: checkin.habit.id)?.answeredAt,
            currentStreak: try await database.progress(of: checkin.habit, today: today, need: .summary).timeline
                .currentStreak)
    }

    /// Answers the check-in for the day `now` falls on (`CheckinOutcome.of`: a yes stands for the day).
    /// With `at` (the instant the person answered, sent later by a phone that was offline), the day
    /// `at` falls on, and last writer wins: an answer older than the day's latest change is `.superseded`.
    public func answer(yes: Bool, now: Date, at: Date? = nil) async throws -> CheckinAnswered {
        let instant = try EntryService.instant(of: at, now: now)
        let checkin = try await require(now: now)
        let day = clock.day(at: instant)
        if at != nil, day < checkin.habit.createdDay {
            throw MorningProofError(
                .refused, code: "before_habit",
                "the check-in did not exist yet on \(day) (it was set up on \(checkin.habit.createdDay))")
        }
        let outcome = try await database.answerCheckin(
            habitID: checkin.habit.id, day: day, yes: yes, at: instant, zone: clock.zoneIdentifier,
            lastWriterWins: at != nil)
        let stored = try await database.checkinAnswer(habitID: checkin.habit.id, day: day)
        return CheckinAnswered(
            day: day, outcome: outcome, yes: stored?.yes == true,
            currentStreak: try await database.progress(of: checkin.habit, today: clock.day(at: now), need: .summary)
                .timeline.currentStreak,
            texts: checkin.texts)
    }

    /// Creates the check-in habit if there is none, and sets its texts from `preset` (the general one
    /// for a new check-in without a preset) and `question`.
    public func setup(preset: CheckinTexts.Preset?, question: String?, now: Date) async throws -> CheckinSetup {
        if let question {
            try UserText.validate(question, field: .question, maxLength: UserText.checkinTextMaxLength)
            if UserText.isBlank(question) {
                throw MorningProofError.usage("\(field: .question) needs some words")
            }
        }
        let existing = try await habit()
        let habit: Habit
        if let existing {
            habit = existing
        } else {
            habit = try await database.addHabit(
                Habit(
                    name: Self.habitName, kind: .checkin, schedule: .daily, createdDay: clock.day(at: now),
                    createdAt: now))
        }
        if let preset = preset ?? (existing == nil ? .general : nil) {
            let texts = CheckinTexts.preset(preset)
            try await database.setSetting(SettingKey.checkinQuestion, to: texts.question)
            try await database.setSetting(SettingKey.checkinVerse, to: texts.verse)
            try await database.setSetting(
                SettingKey.checkinSuggestions, to: CheckinTexts.joinSuggestions(texts.suggestions))
            // The preset's quotes too, unless the person chose a quotes file of their own.
            let quotes = try await database.setting(SettingKey.quotesFile)
            if quotes.map({ BuiltInQuotes(rawValue: $0) != nil }) ?? true {
                try await database.setSetting(SettingKey.quotesFile, to: preset.quotes.rawValue)
            }
        }
        if let question {
            try await database.setSetting(
                SettingKey.checkinQuestion, to: question.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return await CheckinSetup(habit: habit, created: existing == nil, texts: try texts())
    }

    /// Clears the answer (and its done entry) of the day `now` falls on; returns that day and what
    /// the answer was (nil: none).
    public func reset(now: Date) async throws -> (day: LocalDay, was: Bool?) {
        let checkin = try await require(now: now)
        let today = clock.day(at: now)
        let cleared = try await database.clearDay(habitID: checkin.habit.id, day: today, at: now, lastWriterWins: false)
        return (today, cleared.answer?.yes ?? (cleared.entry?.status == .done ? true : nil))
    }

    /// The habit a name given to `undo` means: `checkin` (or `check-in`) names the check-in habit when
    /// no habit is called that.
    public func habitName(for text: String) async throws -> String {
        guard ["checkin", "check-in"].contains(text.lowercased()), (try? await database.findHabit(named: text)) == nil,
            let habit = try await habit()
        else { return text }
        return habit.name
    }
}
