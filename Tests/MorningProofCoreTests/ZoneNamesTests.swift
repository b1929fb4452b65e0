import Foundation
import Testing

@testable import MorningProofCore

@Suite struct ZoneNamesTests {
    @Test func acceptsIANANames() {
        for name in [
            "Europe/London", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "Asia/Tokyo",
            "Asia/Kolkata", "Asia/Calcutta", "Europe/Kyiv", "Etc/UTC", "UTC", "EST5EDT", "Etc/GMT+3",
        ] {
            #expect(ZoneNames.isValid(name), "\(name)")
        }
        // Foundation's own list on Linux lacks UTC, EST5EDT and Asia/Kolkata, all IANA names
        // (EST5EDT is a zone of the tz database's northamerica file, now a link to New York).
        #expect(ZoneNames.known.contains("EST5EDT"))
        #expect(ZoneNames.known.count > 500)
        #expect(ZoneNames.known == ZoneNames.known.sorted())
    }

    @Test func refusesOffsetsAndMisspellings() {
        // Foundation loads "UTC+3", "GMT+3" and "PST" as zones; none of them is an IANA name.
        for name in [
            "UTC+3", "+03:00", "GMT+3", "GMT+03:00", "-0500", "PST", "PDT", "europe/london", "Europe/Londn", "",
            "London",
        ] {
            #expect(!ZoneNames.isValid(name), "\(name)")
        }
    }

    @Test func readsZoneAndLinkNamesFromTzdata() {
        let text = """
            # version 2025b
            R d 1918 o - Mar 31 2 1 S
            Z Asia/Kolkata 5:53:28 - LMT 1854 Jun 28
            Z EST5EDT -5 u E%sT
            L Etc/UTC UTC
            L Asia/Kolkata Asia/Calcutta
            """
        #expect(ZoneNames.ianaNames(tzdata: text) == ["Asia/Kolkata", "EST5EDT", "UTC", "Asia/Calcutta"])
        #expect(ZoneNames.ianaNames(tzdata: String?.none) == [])
    }

    @Test func aClockKeepsTheNameItWasGiven() {
        // Foundation calls UTC "GMT"; the setting and the entries should keep saying UTC.
        #expect(clock("UTC").zoneIdentifier == "UTC")
        #expect(clock("Asia/Calcutta").zoneIdentifier == "Asia/Calcutta")
        #expect(DayClock(timeZone: TimeZone(identifier: "Asia/Tokyo")!).zoneIdentifier == "Asia/Tokyo")
    }

    @Test func suggestsTheClosestName() {
        #expect(ZoneNames.suggestion(for: "Europe/Londn") == "Europe/London")
        #expect(ZoneNames.suggestion(for: "london") == "Europe/London")
        #expect(ZoneNames.suggestion(for: "europe/london") == "Europe/London")
        #expect(ZoneNames.suggestion(for: "America/New York") == "America/New_York")
        #expect(ZoneNames.suggestion(for: "Asia/Tokio") == "Asia/Tokyo")
        #expect(ZoneNames.suggestion(for: "Lord Howe") == "Australia/Lord_Howe")
        #expect(ZoneNames.suggestion(for: "utc") == "UTC")
        #expect(ZoneNames.suggestion(for: "Kolkatta") == "Asia/Kolkata")
    }

    @Test func suggestsNothingForGibberish() {
        #expect(ZoneNames.suggestion(for: "qqqqqqqqqqqqqqqq") == nil)
    }

    @Test func systemDefaultReadsTZFirst() {
        #expect(ZoneNames.systemDefault(environment: ["TZ": "Asia/Tokyo"]) == "Asia/Tokyo")
        #expect(ZoneNames.systemDefault(environment: ["TZ": "UTC"]) == "UTC")
        #expect(ZoneNames.systemDefault(environment: ["TZ": ":Europe/London"]) == "Europe/London")
        #expect(ZoneNames.systemDefault(environment: ["TZ": "/usr/share/zoneinfo/Pacific/Apia"]) == "Pacific/Apia")
        // An offset in TZ is not a zone name: fall through to the machine's zone, always a valid one.
        #expect(ZoneNames.isValid(ZoneNames.systemDefault(environment: ["TZ": "UTC+3"])))
    }

    /// A machine as a test describes it.
    struct FakeZoneData: ZoneData {
        var environment: [String: String] = [:]
        var link: String?
        var timezone: String?
        func tzdata() -> [UInt8]? { nil }
        func localtimeTarget() -> String? { link }
        func timezoneFile() -> String? { timezone }
    }

    @Test func systemDefaultFallsBackFromTZToTheLinkToDebiansFileToUTC() {
        let linked = FakeZoneData(link: "/usr/share/zoneinfo/Asia/Tokyo", timezone: "Europe/Paris\n")
        #expect(ZoneNames.systemDefault(from: linked) == "Asia/Tokyo")
        var tzFirst = linked
        tzFirst.environment = ["TZ": "America/New_York"]
        #expect(ZoneNames.systemDefault(from: tzFirst) == "America/New_York")
        #expect(ZoneNames.systemDefault(from: FakeZoneData(link: "/etc/weird", timezone: "Europe/Paris\n")) == "Europe/Paris")
        #expect(ZoneNames.systemDefault(from: FakeZoneData(link: nil, timezone: "GMT+3")) == "UTC")
        #expect(ZoneNames.systemDefault(from: FakeZoneData()) == "UTC")
    }
}
