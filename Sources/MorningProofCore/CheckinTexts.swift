import Foundation

/// The words of the morning check-in: the question, a verse or saying, and suggestions.
public struct CheckinTexts: Sendable, Equatable {
    public var question: String
    /// Shown on the gate's block screen; empty for none.
    public var verse: String
    public var suggestions: [String]

    public init(question: String, verse: String, suggestions: [String]) {
        self.question = question
        self.verse = verse
        self.suggestions = suggestions
    }

    /// A ready-made set of texts for `checkin setup --preset`.
    public enum Preset: String, CaseIterable, Sendable {
        case faith, general

        /// The built-in quotes that go with the preset's texts.
        public var quotes: BuiltInQuotes { self == .faith ? .all : .general }
    }

    public static func preset(_ preset: Preset) -> CheckinTexts {
        switch preset {
        case .faith:
            CheckinTexts(
                question: "Have you spent time with God today?",
                verse:
                    "\"But seek ye first the kingdom of God, and his righteousness; and all these things shall be added unto you.\" (Matthew 6:33, King James Version)",
                suggestions: [
                    "Read a chapter from the Bible", "Pray for 10 minutes", "Listen to worship music",
                    "Journal what God is speaking",
                ])
        case .general:
            CheckinTexts(
                question: "Have you done what matters most this morning?",
                verse: "\"Well done is better than well said.\" (Benjamin Franklin, Poor Richard's Almanack, 1737)",
                suggestions: [
                    "Sit quietly for 10 minutes", "Write down today's one most important task",
                    "Take a short walk outside", "Read a few pages of a good book",
                ])
        }
    }

    /// Suggestions are stored as one setting, separated by `;` (a literal `;` cannot be part of one).
    public static func parseSuggestions(_ text: String) -> [String] {
        text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    public static func joinSuggestions(_ suggestions: [String]) -> String {
        suggestions.joined(separator: "; ")
    }
}

/// What answering the check-in did.
public enum CheckinOutcome: Equatable, Sendable {
    /// The first answer of the day was stored.
    case answered
    /// A no was changed to yes (the person came back after doing it).
    case changedToYes
    /// The day already had this answer: nothing changed.
    case unchanged
    /// The day already had a yes, which stands for the day: a no was not stored.
    case yesStands
    /// The day was changed after this answer was given (`LastWriter`): nothing changed.
    case superseded

    /// Answering `yes` (or no) on a day whose stored answer is `existing` (nil: none yet). A yes stands
    /// for the day: a later no does not replace it; a no can become a yes when the person comes back.
    public static func of(answering yes: Bool, over existing: Bool?) -> CheckinOutcome {
        switch (existing, yes) {
        case (true?, false): return .yesStands
        case (true?, true), (false?, false): return .unchanged
        case (false?, true): return .changedToYes
        case (nil, _): return .answered
        }
    }
}
