import Foundation
import Testing

@testable import MorningProofCore

/// Loop Habit Tracker's habit strength: score = previous * m + c * (1 - m), m = 0.5^(sqrt(f)/13).
@Suite struct ScoreTests {
    static let daily = pow(0.5, 1.0 / 13)  // m for f = 1: 0.948078...

    @Test func multiplierFollowsTheFrequency() {
        #expect(abs(HabitScore.multiplier(frequency: 1) - 0.948078) < 1e-6)
        #expect(abs(HabitScore.multiplier(frequency: 3.0 / 7) - pow(0.5, (3.0 / 7).squareRoot() / 13)) < 1e-12)
    }

    @Test func thirtyOneDaysInARowFromZeroReachPointEight() {
        // From 0, n done days give 1 - m^n: 1 - 0.5^(31/13) = 1 - 0.191496 = 0.808504.
        let t = timeline(.daily, from: "2026-03-01", String(repeating: "x", count: 31))
        #expect(t.score >= 0.80)
        #expect(abs(t.score - (1 - pow(0.5, 31.0 / 13))) < 1e-9)
        #expect(abs(t.score - 0.8085) < 1e-4)
        // Thirty days are not enough: 1 - 0.5^(30/13) = 1 - 0.201983 = 0.798017.
        #expect(timeline(.daily, from: "2026-03-01", String(repeating: "x", count: 30)).score < 0.80)
    }

    @Test func oneMissAfterAHundredPerfectDays() {
        // 100 done days from 0: 1 - 0.5^(100/13) = 1 - 0.004835 = 0.995165.
        // The miss multiplies by m = 0.948078: 0.995165 * 0.948078 = 0.943494.
        // The "about 0.948" is m itself, the score after one miss from a perfect 1.0;
        // starting from 0, a hundred days leave 0.48% of the way still to go, hence 0.9435.
        // With a skipped day in between instead of the miss, it stays at 0.995165.
        let history = String(repeating: "x", count: 100) + "." + "."  // the miss, then today still open
        let t = timeline(.daily, from: "2026-01-01", history)
        let expected = (1 - pow(0.5, 100.0 / 13)) * Self.daily
        #expect(abs(t.score - expected) < 1e-9)
        #expect(abs(t.score - 0.9435) < 0.0005)
        #expect(abs(t.score - 0.948) < 0.005)  // "about 0.948", to within half a percent
        let skipped = timeline(.daily, from: "2026-01-01", String(repeating: "x", count: 100) + "s.")
        #expect(abs(skipped.score - 0.995165) < 1e-6)
    }

    @Test func aSkippedDayLeavesTheScoreUnchanged() {
        let plain = timeline(.daily, from: "2026-03-01", "xxxx").score
        #expect(timeline(.daily, from: "2026-03-01", "xxsxx").score == plain)
        #expect(timeline(.daily, from: "2026-03-01", "xxxxs").score == plain)
        #expect(timeline(.daily, from: "2026-03-01", "xxtxx").score == plain)
        // An empty past day is a miss, which lowers it.
        #expect(timeline(.daily, from: "2026-03-01", "xx.xx").score < plain)
    }

    @Test func todayEmptyIsNotScoredYet() {
        let five = timeline(.daily, from: "2026-03-01", "xxxxx").score
        #expect(timeline(.daily, from: "2026-03-01", "xxxxx.").score == five)
        // Once that day is past, it is a miss.
        let missed = timeline(.daily, from: "2026-03-01", "xxxxx..").score
        #expect(abs(missed - five * Self.daily) < 1e-12)
        #expect(abs(five - (1 - pow(Self.daily, 5))) < 1e-12)
    }

    @Test func threeAWeekUsesTheDoubledWindowSixInFourteen() {
        // Six done days, then eight empty ones, then today open.
        let t = timeline(.timesPerWeek(3), from: "2026-03-02", "xxxxxx" + String(repeating: ".", count: 8) + ".")
        let m = pow(0.5, (3.0 / 7).squareRoot() / 13)
        // The 14-day window holds 1, 2, ... 6 done days, then all six until day 13: c = n/6 capped at 1.
        // A 7-day window asking for 3 would have dropped to 2/3 on day 10.
        let completions: [Double] = [1, 2, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6].map { min(1, $0 / 6) }
        let expected = completions.reduce(0.0) { $0 * m + $1 * (1 - m) }
        #expect(abs(t.score - expected) < 1e-12)
        // Day 14 drops the first done day out of the window: 5/6.
        let later = timeline(.timesPerWeek(3), from: "2026-03-02", "xxxxxx" + String(repeating: ".", count: 9) + ".")
        #expect(abs(later.score - (expected * m + 5.0 / 6 * (1 - m))) < 1e-12)
    }

    @Test func everyNDaysIsOnceInNDoubled() {
        // Every 3 days: f = 1/3, so 2 done days in the last 6.
        let t = timeline(.everyDays(3), from: "2026-03-01", "x..x")
        let m = pow(0.5, (1.0 / 3).squareRoot() / 13)
        let expected = [0.5, 0.5, 0.5, 1.0].reduce(0.0) { $0 * m + $1 * (1 - m) }
        #expect(abs(t.score - expected) < 1e-12)
    }

    @Test func aSteadyThreeAWeekHabitApproachesFullStrength() {
        let week = "x.x.x.."
        let t = timeline(.timesPerWeek(3), from: "2026-01-05", String(repeating: week, count: 52))
        #expect(t.score > 0.95)
        #expect(t.score <= 1)
        let half = timeline(.timesPerWeek(3), from: "2026-01-05", String(repeating: "x.....x", count: 52))
        #expect(half.score < t.score)
    }
}
