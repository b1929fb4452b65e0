import Foundation
import MorningProofCore
import Testing

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

    /// An action's `at` follows the spec's `ActionInstant` pattern (issue 38): `read` goes on taking
    /// the leap second, any fraction, a comma and `-0000` from `--now` and files.
    @Test(arguments: [
        "2026-03-08T12:29:60Z", "2026-03-08T12:30:00.1234567Z", "2026-03-08T12:30:00-0000",
        "2026-03-08T12:30:00,5Z", "1900-06-01T12:00:00Z", "9998-01-01T12:00:00Z", "2026-03-08T12:30:00.Z",
        "2026-03-08T12:30:00+19:00",
    ])
    func anActionsInstantRefusesWhatTheSpecsPatternRefuses(_ text: String) {
        #expect(throws: MorningProofError.self) { try ISOInstant.readAction(text, field: "\"at\"") }
    }

    @Test func anActionsInstantTakesWhatTheSpecsPatternAllows() throws {
        let at = Date(timeIntervalSince1970: 1_772_973_000)
        #expect(try ISOInstant.readAction("2026-03-08T12:30Z", field: "at") == at)
        #expect(try ISOInstant.readAction("2026-03-08t07:30:00-05:00", field: "at") == at)
        #expect(try ISOInstant.readAction("2026-03-08T12:30:00-00:00", field: "at") == at)
        #expect(try ISOInstant.readAction("2026-03-08T12:30:00.250000z", field: "at") == at + 0.25)
        #expect(try ISOInstant.readAction("1901-01-01T00:00:00+18:59", field: "at") < at)
        #expect(try ISOInstant.readAction("9997-12-31T23:59:59.999999-18:59", field: "at") > at)
        let long = "2026-03-08T12:30:00." + String(repeating: "1", count: 20_000) + "Z"
        #expect(ISOInstant.parse(long) != nil)
        do {
            _ = try ISOInstant.readAction(long, field: "\"at\"")
            Issue.record("20,000 fraction digits were taken")
        } catch let error as MorningProofError {
            #expect(error.kind == .usage && error.message.hasPrefix("\"at\" needs an instant"), "\(error.message)")
            #expect(error.message.count < 300, "the message does not echo the whole value")
        }
    }

    @Test(arguments: [
        "UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Apia", "Asia/Kathmandu",
        "America/St_Johns", "Europe/London", "Pacific/Kiritimati", "Etc/GMT+12",
    ])
    func formatsAsFoundationsFormatterDoes(_ zone: String) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = try #require(TimeZone(identifier: zone))
        // Across DST changes, before 1970, and in the local mean time of 1850 (an offset in seconds).
        for seconds in stride(from: -3_786_825_600.0, to: 1_900_000_000, by: 9_876_543.21) + [
            -0.5, 0, 1_772_973_000.75,
        ] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(
                ISOInstant.format(date, in: formatter.timeZone) == formatter.string(from: date), "\(zone) \(seconds)")
        }
    }
}
