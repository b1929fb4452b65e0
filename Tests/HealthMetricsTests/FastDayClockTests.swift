import Foundation
import Testing

@testable import HealthMetrics
@testable import MorningProofCore

@Suite("Fast day lookup")
struct FastDayClockTests {
    @Test(
        "gives DayClock's answer across a year of DST changes, day starts and half-hour zones",
        arguments: [
            ("America/New_York", 0), ("America/New_York", 240), ("Australia/Lord_Howe", 90), ("Asia/Kolkata", 0),
        ]
    )
    func matchesDayClock(zone: String, dayStart: Int) throws {
        let clock = try #require(DayClock(zoneIdentifier: zone, dayStart: dayStart))
        var fast = FastDayClock(clock)
        let start = 1_767_225_600.0  // 2026-01-01T00:00Z
        var t = start
        while t < start + 366 * 86_400 {
            let expected = clock.day(at: Date(timeIntervalSince1970: t))
            #expect(fast.day(at: t) == expected, "\(zone) at \(t)")
            if fast.day(at: t) != expected { return }
            t += 7 * 60 + 13
        }
    }

    @Test("Apple's date format parsed by the cached path equals the general parser")
    func cachedDates() {
        var parser = AppleDateParser()
        for text in [
            "2026-03-08 01:59:59 -0500", "2026-03-08 03:00:00 -0400", "2026-03-08 23:30:00 -0400",
            "2026-11-01 01:30:00 -0400", "2026-11-01 01:30:00 -0500", "2024-02-29 12:00:00 +0530",
        ] {
            var copy = text
            let cached = copy.withUTF8 { parser.seconds(UnsafeRawBufferPointer($0)) }
            #expect(cached == HealthDate.seconds(text), "\(text)")
        }
    }
}

extension HealthDate {
    static func seconds(_ text: String) -> Double? {
        if case .instant(let t) = parse(text) { return t }
        return nil
    }
}
