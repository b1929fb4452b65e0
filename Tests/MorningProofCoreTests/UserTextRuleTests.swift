import Testing

@testable import MorningProofCore

@Suite struct UserTextRuleTests {
    @Test func refusesControlAndBidiCharacters() {
        for bad in [
            "\u{0}", "\u{1B}", "\n", "\t", "\u{7F}", "\u{80}", "\u{9F}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202E}",
            "\u{2066}", "\u{2069}",
        ] {
            #expect(throws: MorningProofError.self) {
                try UserText.validate("a\(bad)b", field: "name", maxLength: 100)
            }
        }
        #expect((try? UserText.validate("  Café ☕ 読書  ", field: "name", maxLength: 100)) == "Café ☕ 読書")
    }

    /// Line and paragraph separators, the byte order mark, tag characters and non-characters are
    /// no plain text either: each is refused, named by its code point and kind.
    @Test(
        arguments: [
            (0x2028, "line separator"), (0x2029, "paragraph separator"), (0xFEFF, "byte order mark"),
            (0xE0001, "tag character"), (0xE0041, "tag character"), (0xE007F, "tag character"),
            (0xFFFE, "non-character"), (0xFFFF, "non-character"), (0xFDD0, "non-character"), (0xFDEF, "non-character"),
            (0x1FFFE, "non-character"), (0x10FFFF, "non-character"),
        ] as [(UInt32, String)])
    func refusesSeparatorsMarksTagsAndNonCharacters(value: UInt32, kind: String) throws {
        let bad = try #require(Unicode.Scalar(value))
        let text = "a\(Character(bad))b"
        #expect(
            throws: MorningProofError.usage(
                "name contains the \(kind) \(UserText.codePoint(bad)); use plain text on one line")
        ) {
            try UserText.validate(text, field: "name", maxLength: 100)
        }
        #expect(UserText.visible(text) == "a\\u{\(String(value, radix: 16, uppercase: true))}b")
    }

    /// Characters next to the refused ranges stay plain text.
    @Test func keepsTheNeighboursOfRefusedRanges() throws {
        for fine in ["\u{FDCF}", "\u{FDF0}", "\u{FFFD}", "\u{1FFFD}", "\u{E0100}", "\u{2027}", "\u{202F}"] {
            #expect(try UserText.validate("a\(fine)b", field: "name", maxLength: 100) == "a\(fine)b")
        }
    }

    /// A name must show something: only spaces or only invisible characters is blank, for every name.
    @Test func namesOfOnlyInvisibleCharactersAreBlank() {
        for blank in [
            "", "   ", "\u{200B}", "\u{200B}\u{200C}\u{200D}", "\u{2060}", "\u{3164}", "\u{2800}", " \u{00A0}\u{3000}",
            "\u{FE0F}", "\u{034F}", "\u{00AD}",
        ] {
            #expect(UserText.isBlank(blank), "\(blank.unicodeScalars.map(UserText.codePoint))")
            #expect(HabitNameMatch.isBlank(blank))
        }
        for name in ["a", "\u{200B}a", "読", "👍", "☕\u{FE0F}", "-"] {
            #expect(!UserText.isBlank(name), "\(name)")
        }
    }

    @Test func namesTheFieldAndTheCodePoint() {
        do {
            try UserText.validate("x\u{1B}[31m", field: "the habit name", maxLength: 100)
            Issue.record("not refused")
        } catch let error as MorningProofError {
            #expect(error.kind == .usage)
            #expect(error.message.hasPrefix("the habit name contains the control character U+001B"))
        } catch {
            Issue.record("\(error)")
        }
    }

    /// Unicode scalars after trimming, as JSON Schema's maxLength counts them, so that the server's
    /// spec and the rule agree: 👍🏽 is two scalars.
    @Test func countsUnicodeScalarsAfterTrimming() {
        #expect(
            (try? UserText.validate(" " + String(repeating: "👍🏽", count: 50) + " ", field: "n", maxLength: 100)) != nil)
        #expect(throws: MorningProofError.self) {
            try UserText.validate(String(repeating: "👍🏽", count: 51), field: "n", maxLength: 100)
        }
        #expect(throws: MorningProofError.self) {
            try UserText.validate(String(repeating: "a", count: 101), field: "n", maxLength: 100)
        }
    }

    @Test func visibleEscapesAndWidths() {
        #expect(UserText.visible("a\u{1B}[1m\nb\u{202E}") == "a\\u{1B}[1m\\u{A}b\\u{202E}")
        #expect(UserText.visible("a\nb", keepingNewlines: true) == "a\nb")
        #expect(UserText.visible("plain") == "plain")
        #expect(UserText.displayWidth("読書ab") == 6)
        #expect(UserText.truncated("abcdefgh", toWidth: 5) == "abcd…")
        #expect(UserText.truncated("abc", toWidth: 5) == "abc")
        #expect(UserText.truncated("読書読書", toWidth: 5) == "読書…")
        #expect(UserText.padded("読", toWidth: 4) == "読  ")
    }
}
