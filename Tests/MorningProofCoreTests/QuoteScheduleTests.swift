import Foundation
import Testing

@testable import MorningProofCore

@Suite struct QuoteScheduleTests {
    let utc = DayClock(timeZone: TimeZone(identifier: "UTC")!)
    let newYork = DayClock(timeZone: TimeZone(identifier: "America/New_York")!)

    func instant(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    @Test func followsTheWorkedExample() throws {
        let schedule = try #require(QuoteSchedule(activeCount: 292))
        #expect(schedule.step == 37)
        #expect(schedule.index(window: 132, dayOfYear: 1) == 169)
        #expect(schedule.index(window: 132, dayOfYear: 2) == 206)
        let first = schedule.moment(at: instant("2026-01-01T11:00:30Z"), clock: utc)
        #expect(first.shown == QuoteSchedule.Slot(date: LocalDay("2026-01-01")!, window: 132, index: 169))
        let second = schedule.moment(at: instant("2026-01-02T11:04:59Z"), clock: utc)
        #expect(second.shown.window == 132)
        #expect(second.shown.index == 206)
    }

    @Test func keepsThePreviousQuoteForTheFirst30Seconds() throws {
        let schedule = try #require(QuoteSchedule(activeCount: 292))
        let at29 = schedule.moment(at: instant("2026-01-01T11:00:29Z"), clock: utc)
        #expect(at29.current.window == 132)
        #expect(at29.shown.window == 131)
        #expect(at29.shown.index == 168)
        #expect(at29.inGrace)
        let at30 = schedule.moment(at: instant("2026-01-01T11:00:30Z"), clock: utc)
        #expect(at30.shown.window == 132)
        #expect(!at30.inGrace)
    }

    @Test func graceAtMidnightShowsTheLastWindowOfTheDayBefore() throws {
        let schedule = try #require(QuoteSchedule(activeCount: 292))
        let moment = schedule.moment(at: instant("2026-01-01T00:00:10Z"), clock: utc)
        #expect(moment.current.window == 0)
        #expect(moment.shown.date == LocalDay("2025-12-31"))
        #expect(moment.shown.window == 287)
        #expect(moment.shown.index == (287 + 365 * 37) % 292)
        let before = schedule.moment(at: instant("2025-12-31T23:59:59Z"), clock: utc)
        #expect(before.shown == moment.shown)
    }

    @Test func picksAStepCoprimeWithTheCount() throws {
        #expect(QuoteSchedule.step(for: 74) == 39)  // 37 and 38 share a divisor with 74
        #expect(QuoteSchedule.step(for: 37) == 38)
        #expect(QuoteSchedule.step(for: 1) == 37)
        #expect(QuoteSchedule(activeCount: 0) == nil)
        let schedule = try #require(QuoteSchedule(activeCount: 74))
        #expect(schedule.index(window: 0, dayOfYear: 1) == 39)
        // A coprime step visits every quote at the same window over 74 days.
        let indices = Set((1...74).map { schedule.index(window: 100, dayOfYear: $0) })
        #expect(indices.count == 74)
    }

    @Test func windowsFollowWallTimeOnADSTDay() throws {
        let schedule = try #require(QuoteSchedule(activeCount: 292))
        // 2026-03-08: New York jumps from 02:00 EST to 03:00 EDT.
        let afterJump = schedule.moment(at: instant("2026-03-08T07:00:30Z"), clock: newYork)
        #expect(afterJump.current.window == 36)  // 03:00 wall time, though only 2 hours after midnight
        #expect(afterJump.shown.index == (36 + 67 * 37) % 292)
        let beforeJump = schedule.moment(at: instant("2026-03-08T06:59:59Z"), clock: newYork)
        #expect(beforeJump.current.window == 23)  // 01:55
        let day = LocalDay("2026-03-08")!
        let history = schedule.history(of: day, clock: newYork)
        #expect(history.count == 288 - 12)
        #expect(!history.contains { (24...35).contains($0.window) })
        // 2026-11-01: 01:00 to 02:00 happens twice; both show the same window and quote.
        let fall = LocalDay("2026-11-01")!
        let firstPass = schedule.moment(at: instant("2026-11-01T05:30:40Z"), clock: newYork)
        let secondPass = schedule.moment(at: instant("2026-11-01T06:30:40Z"), clock: newYork)
        #expect(firstPass.shown == secondPass.shown)
        #expect(firstPass.shown.window == 18)
        #expect(schedule.history(of: fall, clock: newYork).count == 288)
    }

    @Test func historyStopsAtTheCurrentWindow() throws {
        let schedule = try #require(QuoteSchedule(activeCount: 10))
        let day = LocalDay("2026-01-01")!
        let slots = schedule.history(of: day, until: instant("2026-01-01T00:12:00Z"), clock: utc)
        #expect(slots.map(\.window) == [0, 1, 2])
        #expect(slots.map(\.index) == [0, 1, 2].map { ($0 + 37) % 10 })
        #expect(schedule.history(of: day, until: instant("2025-12-31T23:00:00Z"), clock: utc).isEmpty)
        #expect(schedule.history(of: day, until: instant("2026-01-05T00:00:00Z"), clock: utc).count == 288)
    }
}
