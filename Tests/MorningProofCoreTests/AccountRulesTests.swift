import Foundation
import Testing

@testable import MorningProofCore

@Suite("Accounts, daily updates and zone changes: the server's rules in Core")
struct AccountRulesTests {
    @Test func emailsAndPasswords() {
        for good in ["ada@example.com", "a.b+c@mail.example.co.uk", "ü@bücher.de"] {
            #expect(AccountRules.emailProblem(good) == nil, "\(good)")
        }
        for bad in [
            "", "ada", "ada@", "@example.com", "ada@example", "a@b@example.com", "ada @example.com",
            "ada@example.com.", "ada@.example.com", "ada\u{202E}@example.com",
            String(repeating: "a", count: 250) + "@b.co",
        ] {
            #expect(AccountRules.emailProblem(bad) != nil, "\(bad)")
        }
        #expect(AccountRules.passwordProblem("1234567") != nil)
        #expect(AccountRules.passwordProblem("12345678") == nil)
        #expect(AccountRules.passwordProblem(String(repeating: "ü", count: 1024)) == nil)
        #expect(AccountRules.passwordProblem(String(repeating: "x", count: 1025)) != nil)
        // Lengths count Unicode scalars, as JSON Schema does: eight combining marks are eight.
        #expect(AccountRules.passwordProblem("e" + String(repeating: "\u{301}", count: 7)) == nil)
    }

    @Test func zoneProblemsSuggestTheClosestName() {
        #expect(ZoneNames.problem(with: "Europe/Istanbul") == nil)
        #expect(
            ZoneNames.problem(with: "Europe/Londn") == "unknown time zone \"Europe/Londn\"; did you mean Europe/London?"
        )
        #expect(ZoneNames.problem(with: "") == "the time zone is empty; use an IANA name such as Europe/Istanbul")
        // The tz database keeps EST, MST and HST for old systems; they are abbreviations all the same.
        for abbreviation in ["EST", "MST", "HST"] { #expect(!ZoneNames.isValid(abbreviation)) }
        #expect(ZoneNames.problem(with: "EST") == "unknown time zone \"EST\"; did you mean America/New_York?")
        #expect(ZoneNames.problem(with: "pdt")?.hasSuffix("did you mean America/Los_Angeles?") == true)
        #expect(ZoneNames.isValid("EST5EDT"))
        // A long text gets no suggestion (comparing it with every name would take a while).
        #expect(
            ZoneNames.problem(with: String(repeating: "x", count: 5_000))?.hasSuffix("such as Europe/Istanbul") == true)
    }

    @Test func onlyARealChangeOfClockIsRecorded() {
        let at = Date(timeIntervalSince1970: 1_773_000_000)
        #expect(ZoneChange.recorded(from: nil, to: clock("Asia/Tokyo"), at: at) == nil)
        #expect(ZoneChange.recorded(from: clock("Asia/Tokyo"), to: clock("Asia/Tokyo"), at: at) == nil)
        #expect(ZoneChange.recorded(from: clock("UTC"), to: clock("Asia/Tokyo"), at: at)?.at == at)
        #expect(ZoneChange.recorded(from: clock("UTC"), to: clock("UTC", dayStart: "04:00"), at: at) != nil)
        // A new day start alone moves no one: no travel day.
        let changes = [ZoneChange(at: at, from: clock("UTC"), to: clock("UTC", dayStart: "04:00"))]
        #expect(changes.travelDays.isEmpty)
    }

    @Test func dailyUpdateStreaksFollowTheDailyHabitRules() {
        let utc = clock("UTC")
        let days = ["2026-03-01", "2026-03-02", "2026-03-04", "2026-03-05"].map(day)
        #expect(DailyUpdateStreak.of(days: days, today: day("2026-03-06"), travelDays: [], clock: utc) == (2, 2))
        #expect(DailyUpdateStreak.of(days: days, today: day("2026-03-07"), travelDays: [], clock: utc) == (0, 2))
        #expect(
            DailyUpdateStreak.of(days: days, today: day("2026-03-05"), travelDays: [day("2026-03-03")], clock: utc)
                == (4, 4))
        #expect(DailyUpdateStreak.of(days: [], today: day("2026-03-05"), travelDays: [], clock: utc) == (0, 0))
        // Samoa skipped 2011-12-30: a day that never happened breaks nothing.
        let apia = ["2011-12-29", "2011-12-31"].map(day)
        #expect(
            DailyUpdateStreak.of(days: apia, today: day("2011-12-31"), travelDays: [], clock: clock("Pacific/Apia"))
                == (2, 2))
        #expect(DailyUpdateStreak.of(days: apia, today: day("2011-12-31"), travelDays: [], clock: utc) == (1, 1))
    }

    @Test func jsonValuesComeBackAsSent() throws {
        let text = #"{"b":[1,2.5,"x",true,null],"a":{"n":-3}}"#
        let value = try #require(JSONValue.parse(Data(text.utf8)))
        #expect(value.text == #"{"a":{"n":-3},"b":[1,2.5,"x",true,null]}"#)
        #expect(JSONValue.parse(Data("[1,".utf8)) == nil)
        #expect(JSONValue.parse(Data("true".utf8)) == .bool(true))
        #expect(JSONValue.parse(Data("1".utf8)) == .number(1))
    }
}
