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
