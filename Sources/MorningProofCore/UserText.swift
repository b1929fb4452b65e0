/// The rules for text a person types that is stored and printed later: habit names, notes,
/// check-in texts and setting values. No control characters, no bidi overrides, a sane length.
public enum UserText {
    /// The longest habit name, in Unicode scalars after trimming.
    public static let habitNameMaxLength = 100
    /// The longest note on a habit or an entry.
    public static let noteMaxLength = 1_000
    /// The longest check-in question, verse or list of suggestions.
    public static let checkinTextMaxLength = 500
    /// The longest other setting value (a path, a list of source names).
    public static let settingMaxLength = 1_000

    /// True for characters that plain text on one line never holds: what `refusal(of:)` names.
    public static func isRefused(_ scalar: Unicode.Scalar) -> Bool { refusal(of: scalar) != nil }

    /// What kind of refused character `scalar` is, or nil when plain text may hold it: C0 controls
    /// (newline and tab included), DEL, C1 controls, the bidi embeddings, overrides, isolates and
    /// marks (they can rewrite a terminal or reorder what it shows); the line and paragraph
    /// separators U+2028 and U+2029 (a line break to many readers); the byte order mark U+FEFF; the
    /// tag characters U+E0000–U+E007F (invisible text); and the non-characters U+FDD0–U+FDEF and the
    /// last two code points of every plane (U+FFFE, U+FFFF, ... U+10FFFF), which no text exchanges.
    public static func refusal(of scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: "control character"
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: "control character"
        case 0x2028: "line separator"
        case 0x2029: "paragraph separator"
        case 0xFEFF: "byte order mark"
        case 0xE0000...0xE007F: "tag character"
        case 0xFDD0...0xFDEF: "non-character"
        case let value where value & 0xFFFE == 0xFFFE: "non-character"
        default: nil
        }
    }

    /// True for a name that shows nothing: empty, only spaces, or only invisible characters (format
    /// characters such as U+200B, default-ignorable ones such as U+3164, the blank U+2800). The one
    /// rule for every name a person gives: a habit, a token, the check-in question.
    public static func isBlank(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: isVisible)
    }

    static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isWhitespace || properties.isDefaultIgnorableCodePoint || scalar.value == 0x2800 { return false }
        switch properties.generalCategory {
        case .format, .control, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate:
            return false
        default:
            return !isRefused(scalar)
        }
    }

    /// `U+001B`: how a refused character is named in an error message.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Checks a text a person gave for the input `field` (`.note`): `validate(_:field:maxLength:)`
    /// naming it so that each front end can word it (`--note`, `"note"`).
    @discardableResult
    public static func validate(_ text: String, field: InputField, maxLength: Int) throws -> String {
        try validate(text, field: "\(field: field)", maxLength: maxLength)
    }

    /// Checks a text a person gave for `field` (such as "habit name") and returns it trimmed of
    /// surrounding spaces. Throws a usage error naming the field and the first refused character
    /// as U+XXXX, or the length when it is over `maxLength` characters.
    @discardableResult
    public static func validate(_ text: String, field: ErrorText, maxLength: Int) throws -> String {
        if let bad = text.unicodeScalars.first(where: isRefused), let kind = refusal(of: bad) {
            throw MorningProofError.usage("\(field) contains the \(kind) \(codePoint(bad)); use plain text on one line")
        }
        let trimmed = text.trimmingSpaces()
        // Unicode scalars, as JSON Schema's maxLength counts them (the server's spec promises it).
        let length = trimmed.unicodeScalars.count
        if length > maxLength {
            throw MorningProofError.usage(
                "\(field) is \(length) characters long; the most is \(maxLength)")
        }
        return trimmed
    }

    /// The text with every refused character shown as a visible escape such as `\u{1B}`, for
    /// printing stored text (which an older version or another tool may have written) on a terminal.
    public static func visible(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: isRefused) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isRefused(scalar) && !(keepingNewlines && scalar == "\n") {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// Columns a text takes on a terminal: 2 for wide (East Asian, emoji) characters, else 1.
    public static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// The text cut to at most `width` columns, ending in "…" when it was cut.
    public static func truncated(_ text: String, toWidth width: Int) -> String {
        guard displayWidth(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let next = self.width(of: character)
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// The text padded with spaces to `width` columns (never cut).
    public static func padded(_ text: String, toWidth width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - displayWidth(text)))
    }

    static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.properties.isEmojiPresentation { return 2 }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}

extension String {
    /// Trimmed of spaces only (no Foundation): newlines and tabs are refused before this runs.
    fileprivate func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
