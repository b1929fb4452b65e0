/// An input a person or a client gives by name: a command's option, a field of an API request.
/// Errors name inputs with it, and each front end says it in its own words (`--remind-at`,
/// `"remindAt"`), so that no library speaks one front end's language.
public enum InputField: String, Sendable, CaseIterable {
    /// A new habit's name.
    case name
    /// An existing habit's new name.
    case rename
    case kind, every, times, per, within, remindAt, note, metric, atLeast, atMost, activity
    /// A report's span: weeks back, or its first and last day.
    case weeks, from, to
    /// Why the gate opens today.
    case reason
    /// The check-in's question.
    case question
    /// When an account's day begins (the setting `day-start`, the profile's `dayStart`).
    case dayStart
    /// A new habit's first day (`habit add --since`, `startDay`).
    case startDay
}

/// A next step an error suggests, which each front end phrases as its own command or request.
public enum ErrorHint: Sendable, Equatable {
    /// Deleting `habit` needs a confirmation; archiving it keeps its history.
    case confirmRemoval(habit: String)
    /// No check-in is set up; one has to be.
    case setUpCheckin
    /// A photo proof was offered for a habit of another kind.
    case photoHabitNeeded
    /// A path named is not among the watched sources.
    case listSources
    /// An import refused because `count` of its habits are already here, which a merging import adds to.
    case mergeInstead(count: Int)
    /// There are no habits yet; one has to be added. Said only where the person adds one the
    /// same way (the CLI); the neutral words and the API's add nothing.
    case addHabit
    /// A photo habit (`habit`, `id`) was marked done by hand; a photo of the day proves it.
    case proveWithPhoto(habit: String, id: Int64)
    /// An image has more pixels than the limit it was decoded under. Said only where the person
    /// sets that limit (the CLI's `--max-pixels`); the neutral words and the API's add nothing.
    case raisePixelLimit
}

/// How a front end words the inputs and hints an `ErrorText` names. The defaults are neutral words.
public protocol ErrorPhrasing {
    /// `field`, with `value` when the message shows one (`--every 3`, `"every": 3`).
    func name(_ field: InputField, value: String?) -> String
    /// Several inputs given together (`--metric steps --at-least 8000`).
    func settings(_ settings: [(InputField, String)]) -> String
    /// The clause a hint adds to a message, with its leading punctuation ("; ...").
    func hint(_ hint: ErrorHint) -> String
}

extension ErrorPhrasing {
    public func name(_ field: InputField, value: String?) -> String {
        value.map { "\(field.rawValue) \($0)" } ?? field.rawValue
    }

    public func settings(_ settings: [(InputField, String)]) -> String {
        settings.map { name($0.0, value: $0.1) }.joined(separator: " ")
    }

    public func hint(_ hint: ErrorHint) -> String {
        switch hint {
        case .confirmRemoval: "; confirm to delete it, or archive it to keep its history"
        case .setUpCheckin: "; set one up first"
        case .photoHabitNeeded: "; a photo proof needs a habit of kind photo"
        case .listSources: " (see the watched sources)"
        case .mergeInstead(let count):
            " (an import that merges adds to \(count == 1 ? "it" : "them"), keeping every day already recorded)"
        case .proveWithPhoto: "; prove it with a photo of today"
        case .addHabit, .raisePixelLimit: ""
        }
    }
}

/// A message that names its inputs and hints instead of spelling them, written with string
/// interpolation: `"\(field: .every) takes 1 to 365 days, not \(n)"`. `description` says it in
/// neutral words; `rendered(by:)` in a front end's (`--every`, `"every"`).
public struct ErrorText: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    enum Part: Sendable, Equatable {
        case words(String)
        case settings([Setting])
        case hint(ErrorHint)
    }

    struct Setting: Sendable, Equatable {
        let field: InputField
        let value: String?
    }

    var parts: [Part]

    public init(stringLiteral value: String) { parts = [.words(value)] }

    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            if case .words(let before)? = parts.last {
                parts[parts.count - 1] = .words(before + literal)
            } else if !literal.isEmpty {
                parts.append(.words(literal))
            }
        }

        public mutating func appendInterpolation(_ value: some Any) { appendLiteral(String(describing: value)) }

        /// Another message, with the inputs and hints it names.
        public mutating func appendInterpolation(_ text: ErrorText) {
            for part in text.parts {
                if case .words(let words) = part { appendLiteral(words) } else { parts.append(part) }
            }
        }

        /// An input, with the value the message shows for it (`--per week`).
        public mutating func appendInterpolation(field: InputField, _ value: String? = nil) {
            parts.append(.settings([Setting(field: field, value: value)]))
        }

        /// Inputs given together, each with its value (`--metric steps --at-least 8000`).
        public mutating func appendInterpolation(settings: (InputField, String)...) {
            parts.append(.settings(settings.map { Setting(field: $0.0, value: $0.1) }))
        }

        public mutating func appendInterpolation(hint: ErrorHint) { parts.append(.hint(hint)) }
    }

    /// One message after the other, for a message written over several lines.
    public static func + (first: ErrorText, second: ErrorText) -> ErrorText {
        "\(first)\(second)"
    }

    /// The message in the words of `phrasing`.
    public func rendered(by phrasing: some ErrorPhrasing) -> String {
        parts.map { part in
            switch part {
            case .words(let words): words
            case .settings(let list) where list.count == 1: phrasing.name(list[0].field, value: list[0].value)
            case .settings(let list): phrasing.settings(list.map { ($0.field, $0.value ?? "") })
            case .hint(let hint): phrasing.hint(hint)
            }
        }.joined()
    }

    /// The message in neutral words.
    public var description: String { rendered(by: NeutralPhrasing()) }
}

/// The default words: an input by its name, a hint in plain words.
public struct NeutralPhrasing: ErrorPhrasing {
    public init() {}
}
