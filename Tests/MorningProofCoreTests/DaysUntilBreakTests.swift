import Foundation
import Testing

@testable import MorningProofCore

/// `daysUntilBreak` checked against what it promises, on many generated histories of every
/// schedule kind: doing the habit every day from `today + daysUntilBreak` on keeps the current
/// run, while leaving one more day undone ends it.
@Suite struct DaysUntilBreakTests {
    static let schedules: [Schedule] = [
        .daily, .everyDays(2), .everyDays(3), .everyDays(5), .timesPerWeek(1), .timesPerWeek(3), .timesPerWeek(7),
        .timesPerMonth(1), .timesPerMonth(4), .timesInDays(times: 1, days: 3), .timesInDays(times: 2, days: 4),
        .timesInDays(times: 3, days: 7), .timesInDays(times: 5, days: 10),
    ]

    /// Deterministic histories: x done, . empty, s skipped, t travel (mostly done and empty).
    static func histories(count: Int) -> [String] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in
            let length = 1 + next(50)
            let doneShare = 3 + next(7)  // out of 10
            return String(
                (0..<length).map { _ -> Character in
                    let roll = next(20)
                    return roll < 2 * doneShare ? "x" : roll == 19 ? "s" : roll == 18 ? "t" : "."
                })
        }
    }

    /// Days that the history turns missed but `base` did not judge missed: the old run broke.
    static func newlyMissed(_ after: HabitTimeline, _ base: HabitTimeline) -> [LocalDay] {
        after.days.filter { status in
            status.coverage == .missed && base.status(on: status.day).map { $0.coverage != .missed } ?? true
        }.map(\.day)
    }

    /// The most `daysUntilBreak` answers: twice the schedule's span.
    static func longestWait(_ schedule: Schedule) -> Int {
        switch schedule {
        case .daily: 2
        case .everyDays(let n), .timesInDays(_, let n): 2 * n
        case .timesPerWeek: 14
        case .timesPerMonth: 62
        }
    }

    @Test(arguments: schedules)
    func keepsItsPromise(schedule: Schedule) {
        let weekStarts = if case .timesPerWeek = schedule { [1, 7] } else { [1] }
        for weekStart in weekStarts {
            for history in Self.histories(count: 60) {
                let base = timeline(schedule, from: "2026-02-02", history, weekStart: weekStart)
                let wait = base.daysUntilBreak
                // The current week or month (or today) already missed: nothing left to keep.
                let periodStart = base.firstDay.adding(days: base.currentPeriodStart)
                if base.days.contains(where: { $0.day >= periodStart && $0.coverage == .missed }) {
                    #expect(wait == 0, "\(schedule) \(history): broken already")
                    continue
                }
                let span = Self.longestWait(schedule) + 2
                let kept =
                    String(history.dropLast()) + (wait == 0 ? "x" : String(history.last!))
                    + String(repeating: ".", count: max(0, wait - 1)) + (wait == 0 ? "" : "x")
                    + String(repeating: "x", count: span)
                let keep = timeline(schedule, from: "2026-02-02", kept, weekStart: weekStart)
                #expect(
                    Self.newlyMissed(keep, base).isEmpty,
                    "\(schedule) \(history) wait \(wait): done from then on still breaks")

                // One more day undone: the run ends, unless nothing was running.
                guard base.currentStreak > 0, wait < Self.longestWait(schedule) else { continue }
                let late = history + String(repeating: ".", count: wait) + String(repeating: "x", count: span)
                let broken = timeline(schedule, from: "2026-02-02", late, weekStart: weekStart)
                #expect(
                    !Self.newlyMissed(broken, base).isEmpty,
                    "\(schedule) \(history) wait \(wait): one more day undone does not break")
            }
        }
    }

    @Test(arguments: schedules)
    func judgingFromADayMatchesJudgingEverything(schedule: Schedule) {
        for history in Self.histories(count: 60) {
            let t = timeline(schedule, from: "2026-02-02", history)
            let marks = t.days.map(\.mark)
            let rules = CoverageRules(schedule: schedule, firstDay: t.firstDay, today: t.today, weekStart: 1)
            let all = rules.judge(marks)
            #expect(all == t.days.map(\.coverage))
            for from in stride(from: 0, to: marks.count, by: 3) {
                #expect(Array(rules.judge(marks, from: from)[from...]) == Array(all[from...]), "\(history) \(from)")
            }
        }
    }
}
