import Foundation
import Testing

@testable import MorningProofCore

@Suite("Report range")
struct ReportRangeTests {
    @Test("a report covers whole weeks back from its last day, or the days given")
    func reportRange() throws {
        let wednesday = day("2026-03-04")
        let weeks = try ReportRange(from: nil, to: nil, weeks: 2, today: wednesday, weekStart: 1)
        #expect(weeks.first == day("2026-02-23") && weeks.last == wednesday)
        let sundays = try ReportRange(from: nil, to: "yesterday", weeks: 1, today: wednesday, weekStart: 7)
        #expect(sundays.first == day("2026-03-01") && sundays.last == day("2026-03-03"))
        let given = try ReportRange(from: "-3", to: "2026-03-03", weeks: 26, today: wednesday, weekStart: 1)
        #expect(given.first == day("2026-03-01") && given.last == day("2026-03-03"))
        #expect(throws: MorningProofError.usage("\(field: .weeks) takes 1 to 520, not 521")) {
            try ReportRange.checkWeeks(521)
        }
        #expect(throws: MorningProofError.usage("\(field: .from, "2026-03-04") is after \(field: .to, "2026-03-03")")) {
            try ReportRange(from: "today", to: "yesterday", weeks: 1, today: wednesday, weekStart: 1)
        }
    }
}
