import Foundation
import Testing

import MorningProofCore

@Suite struct ISOInstantTests {
    @Test(arguments: [
        "2026-03-08T07:30:00-05:00", "2026-03-08T12:30:00Z", "2026-11-01T01:30:00+0530",
        "2024-02-29T23:59:59+14:00", "1999-12-31T00:00:00-12:00",
    ])
    func agreesWithFoundationsFormatter(_ text: String) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        #expect(ISOInstant.parse(text) == formatter.date(from: text))
    }

    @Test func takesFractionsAndMinutePrecision() {
        #expect(ISOInstant.parse("2026-03-08T12:30Z") == Date(timeIntervalSince1970: 1_772_973_000))
        #expect(ISOInstant.parse("2026-03-08T12:30:00.250Z") == Date(timeIntervalSince1970: 1_772_973_000.25))
    }

    @Test(arguments: [
        "2026-03-08 07:30:00Z", "2026-03-08T07:30:00", "2026-02-30T07:30:00Z", "2026-03-08T24:00:00Z",
        "2026-03-08T07:30:00+5", "2026-03-08T07:30:00Zjunk", "tomorrow", "",
    ])
    func refusesWhatIsNotAnInstant(_ text: String) {
        #expect(ISOInstant.parse(text) == nil)
    }
}
