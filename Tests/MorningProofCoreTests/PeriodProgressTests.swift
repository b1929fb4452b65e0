import Foundation
import PropertyBased
import Testing

@testable import MorningProofCore

/// "2 of 3 this week": the period's count, and that it says what the streak's judgement decides.
@Suite struct PeriodProgressTests {
    @Test func countsTheDoneDaysOfTheWeekHoldingToday() throws {
        // 2026-11-23 is a Monday; today is Thursday the 26th.
        let t = timeline(.timesPerWeek(3), from: "2026-11-16", "xx.x...x.x.", today: "2026-11-26")
        let period = try #require(t.period)
        #expect(period.done == 2 && period.target == 3)
        #expect(period.start == day("2026-11-23") && period.end == day("2026-11-29"))
        #expect(period.words == "2 of 3 this week")
        // A Sunday week start moves the week: Sunday the 22nd to Saturday the 28th.
        let sunday = try #require(
            timeline(.timesPerWeek(3), from: "2026-11-16", "xx.x..xx.x.", today: "2026-11-26", weekStart: 7).period)
        #expect(sunday.start == day("2026-11-22") && sunday.end == day("2026-11-28") && sunday.done == 3)
    }

    @Test func aMonthEndsOnItsLastDayAndAWindowEndsToday() throws {
        let month = try #require(timeline(.timesPerMonth(10), from: "2028-02-01", "x.x.x", today: "2028-02-05").period)
        #expect(
            month.start == day("2028-02-01") && month.end == day("2028-02-29") && month.words == "3 of 10 this month")
        let window = try #require(
            timeline(.timesInDays(times: 4, days: 10), from: "2026-03-01", "xx..x.....x.x", today: "2026-03-13").period)
        #expect(window.start == day("2026-03-04") && window.end == day("2026-03-13"))
        #expect(window.words == "3 of 4 in the last 10 days")
        #expect(timeline(.daily, from: "2026-03-01", "x", today: "2026-03-01").period == nil)
        #expect(timeline(.everyDays(3), from: "2026-03-01", "x", today: "2026-03-01").period == nil)
    }

    @Test func skippedDaysAndAFirstDayInsideThePeriodLowerTheTarget() throws {
        // Created on Saturday the 28th with 3 a week: the week holds two days, so its target is 2.
        let late = try #require(timeline(.timesPerWeek(3), from: "2026-11-28", "x", today: "2026-11-28").period)
        #expect(late.target == 2 && late.words == "1 of 2 this week")
        // Five days skipped of seven leave room for two.
        let skipped = try #require(timeline(.timesPerWeek(3), from: "2026-11-23", "sssss", today: "2026-11-27").period)
        #expect(skipped.target == 2 && skipped.done == 0)
    }

    /// The period is covered by the judgement exactly when `done` reaches `target`, for every week
    /// start, around month ends (February of a leap year, 30- and 31-day months), and for rolling
    /// windows today is covered once the window ending today reaches its target.
    @Test func theCountAgreesWithTheJudgement() async {
        let schedules: [Schedule] = [
            .timesPerWeek(1), .timesPerWeek(3), .timesPerWeek(7), .timesPerMonth(1), .timesPerMonth(4),
            .timesPerMonth(31), .timesInDays(times: 2, days: 5), .timesInDays(times: 4, days: 10),
        ]
        let marks = Gen.element(of: Array("xxxs..t")).array(of: 1...80)
        await propertyCheck(
            count: 300, input: Gen.int(in: 0...(schedules.count - 1)), marks, Gen.int(in: 1...7), Gen.int(in: 0...60)
        ) { which, history, weekStart, shift in
            let schedule = schedules[which]
            let history = String(history.compactMap { $0 })
            // First days from late January to late March 2028, so that todays fall on month ends.
            let first = LocalDay("2028-01-20")!.adding(days: shift)
            let t = timeline(
                schedule, from: first.description, history, today: first.adding(days: history.count - 1).description,
                weekStart: weekStart)
            let context = "\(schedule) week \(weekStart) from \(first) \(history)"
            guard let period = t.period else {
                Issue.record("no period \(context)")
                return
            }
            #expect(period.start <= t.today && t.today <= period.end, "\(context)")
            let days = max(period.start, t.firstDay).through(min(period.end, t.lastDay)).compactMap { t.status(on: $0) }
            #expect(period.done == days.filter { $0.mark == .done }.count, "\(context)")
            if case .timesInDays = schedule {
                if period.done >= period.target && period.done > 0 {
                    #expect(t.status(on: t.today)?.coverage != .missed, "\(context)")
                    #expect(t.status(on: t.today)?.coverage != .open, "\(context)")
                }
                return
            }
            let judged = days.filter { $0.mark != .skipped && $0.mark != .travel }.map(\.coverage)
            if period.done >= period.target {
                #expect(judged.allSatisfy { $0 == .covered }, "covered \(context)")
            } else {
                #expect(!judged.contains(.covered), "not covered \(context)")
            }
        }
    }
}
