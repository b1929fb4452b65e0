import Foundation
import MorningProofCore
import TestFixtures
import Testing

/// The rules that turn asleep intervals into nights (`SleepNights`), without a database: the
/// imports that apply them to files are tested in MorningProofServiceTests (SleepNightTests,
/// DailyTotalsTests).
@Suite("Sleep night rule")
struct SleepNightRuleTests {
    @Test("the night rule: gaps of 4 hours or more split nights; the last end's day is the wake day")
    func nightRule() {
        let d1 = HealthFixtures.day("2026-01-14"), d2 = HealthFixtures.day("2026-01-15")
        let nights = SleepNights.nights([
            .init(start: 0, end: 3600, endDay: d1),
            .init(start: 1800, end: 7200, endDay: d2),  // overlaps: union 0 to 7200
            .init(start: 7200 + 4 * 3600 - 1, end: 7200 + 4 * 3600, endDay: d2),  // 1 s short of 4 h: same night
            .init(start: 7200 + 8 * 3600, end: 7200 + 9 * 3600, endDay: d2),  // exactly 4 h after: a new night
        ])
        #expect(nights.count == 2)
        #expect(nights.first?.asleepSeconds == 7201)
        #expect(nights.first?.day == d2)
        #expect(nights.first?.firstDay == d1)
        #expect(nights.last?.asleepSeconds == 3600)
    }

    @Test("the union of intervals merges overlaps and keeps gaps")
    func union() {
        let day = HealthFixtures.day("2026-03-08")
        let intervals = [(0.0, 10.0), (5, 20), (30, 40), (40, 45)].map {
            SleepNights.Interval(start: $0.0, end: $0.1, endDay: day)
        }
        #expect(SleepNights.nights(intervals).map(\.asleepSeconds) == [35])
        #expect(SleepNights.nights([]).isEmpty)
    }
}
