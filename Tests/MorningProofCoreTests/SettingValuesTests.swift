import Foundation
import Testing

@testable import MorningProofCore

@Suite("Setting value rules")
struct SettingValuesTests {
    @Test("setting values: zones by IANA name, day starts up to noon, weekdays by name")
    func settingValues() throws {
        #expect(try SettingValues.timeZone("Asia/Tokyo") == "Asia/Tokyo")
        #expect(throws: MorningProofError.self) { try SettingValues.timeZone("+03:00") }
        #expect(try SettingValues.dayStart("12:00") == 720)
        #expect(throws: MorningProofError.self) { try SettingValues.dayStart("12:01") }
        #expect(try SettingValues.weekStart("SAT") == "saturday")
        #expect(throws: MorningProofError.usage("bad week-start \"su\": use a weekday such as monday or sunday")) {
            try SettingValues.weekStart("su")
        }
        #expect(Weekday.number(of: "sunday") == 7)
        #expect(try SettingValues.checkinSuggestions("a;b ; ") == "a; b")
        #expect(SettingValues.checkinVerse("  ") == "")
        #expect(throws: MorningProofError.self) { try SettingValues.sourcePriority(" , ") }
    }
}
