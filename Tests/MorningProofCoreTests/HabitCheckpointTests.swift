import Foundation
import PropertyBased
import Testing

@testable import MorningProofCore

/// A timeline carried on from a checkpoint must answer exactly what the whole history answers.
@Suite struct HabitCheckpointTests {
    static let schedules: [Schedule] = [
        .daily, .everyDays(2), .everyDays(3), .everyDays(7), .timesPerWeek(1), .timesPerWeek(3), .timesPerWeek(7),
        .timesPerMonth(1), .timesPerMonth(10), .timesInDays(times: 1, days: 3), .timesInDays(times: 2, days: 5),
        .timesInDays(times: 4, days: 10),
    ]

    /// Every figure a reader can ask of `resumed`, compared with the whole history's.
    static func expectSame(_ resumed: HabitTimeline, _ whole: HabitTimeline, _ context: String) {
        #expect(resumed.currentStreak == whole.currentStreak, "current \(context)")
        let (a, b) = (resumed.longestStreak, whole.longestStreak)
        #expect(a.length == b.length && a.start == b.start && a.end == b.end, "longest \(context)")
        #expect(resumed.totalDone == whole.totalDone, "total \(context)")
        #expect(resumed.score == whole.score, "score \(context)")
        #expect(resumed.daysUntilBreak == whole.daysUntilBreak, "until break \(context)")
        #expect(resumed.todayState == whole.todayState, "today \(context)")
        #expect(resumed.period == whole.period, "period \(context)")
        for day in resumed.knownFrom.through(whole.lastDay) {
            #expect(resumed.status(on: day) == whole.status(on: day), "\(day) \(context)")
        }
        let scores = Dictionary(whole.dailyScores.map { ($0.day, $0.score) }, uniquingKeysWith: { a, _ in a })
        for (day, score) in resumed.dailyScores { #expect(scores[day] == score, "score on \(day) \(context)") }
    }

    /// Random histories of every schedule: a checkpoint summed up at a day that is final, then later
    /// entries on days it does not rest on, then every later today and what each reader needs.
    @Test func aResumedTimelineAgreesWithTheWholeHistory() async {
        let marks = Gen.element(of: Array("xxxxs..t")).array(of: 10...160)
        let later = Gen.element(of: Array("xs.")).array(of: 0...60)
        await propertyCheck(
            count: 150, input: Gen.int(in: 0...(Self.schedules.count - 1)), marks, later, Gen.int(in: 1...7)
        ) { which, history, addition, weekStart in
            let history = history.compactMap { $0 }, addition = addition.compactMap { $0 }
            let schedule = Self.schedules[which]
            let firstDay = LocalDay("2026-01-07")!
            let latest = firstDay.adding(days: history.count - 1)
            let through = HabitCheckpoint.day(
                latest: latest, firstDay: firstDay, schedule: schedule, weekStart: weekStart)
            let validThrough = HabitCheckpoint.validThrough(through, schedule: schedule)
            var recorded: [(day: LocalDay, status: EntryStatus)] = []
            var travel: Set<LocalDay> = []
            for (offset, mark) in history.enumerated() {
                let day = firstDay.adding(days: offset)
                switch mark {
                case "x": recorded.append((day, .done))
                case "s": recorded.append((day, .skipped))
                case "t": travel.insert(day)
                default: break
                }
            }
            let checkpoint = HabitTimeline(
                schedule: schedule, firstDay: firstDay, today: validThrough.adding(days: 1), recorded: recorded,
                travelDays: travel, weekStart: weekStart
            ).summary(through: through)
            // Later days change after the checkpoint was taken (past its last day): it still holds.
            for (offset, mark) in addition.enumerated() {
                let day = validThrough.adding(days: 1 + offset)
                recorded.removeAll { $0.day == day }
                if mark != "." { recorded.append((day, mark == "x" ? .done : .skipped)) }
            }
            let last = max(latest, validThrough.adding(days: addition.count))
            var resumedCount = 0
            for today in validThrough.adding(days: 1).through(last.adding(days: 40)) {
                let whole = HabitTimeline(
                    schedule: schedule, firstDay: firstDay, today: today, recorded: recorded, travelDays: travel,
                    weekStart: weekStart)
                for need in [HistoryNeed.summary, .days(from: today.adding(days: -40))] {
                    guard
                        let plan = HabitTimeline.resumePlan(
                            from: checkpoint, need: need, schedule: schedule, firstDay: firstDay, today: today,
                            weekStart: weekStart)
                    else { continue }
                    resumedCount += 1
                    if case .days(let from) = need { #expect(plan.knownFrom <= from) }
                    // A store reading `resumeSpan` days back beside the state has every day a summary needs.
                    if need == .summary {
                        let earliest = checkpoint.through.adding(days: 1 - HabitTimeline.resumeSpan(of: schedule))
                        #expect(
                            plan.origin >= earliest,
                            "\(schedule) week \(weekStart) origin \(plan.origin) today \(today)")
                    }
                    // Only the days from the plan's origin are read.
                    let resumed = HabitTimeline(
                        schedule: schedule, firstDay: firstDay, today: today, resuming: checkpoint, plan: plan,
                        recorded: recorded.filter { $0.day >= plan.origin }, travelDays: travel, weekStart: weekStart)
                    Self.expectSame(
                        resumed, whole,
                        "\(schedule) week \(weekStart) \(String(history)) + \(String(addition)) today \(today) \(need)")
                }
            }
            // Long histories do resume: the property is not passed by never resuming.
            if history.count > 120 { #expect(resumedCount > 0, "\(schedule) never resumed") }
        }
    }

    /// The span reaches each schedule's earliest origin, and no further than it needs to.
    @Test func theResumeSpanCoversEveryOriginOfASummary() {
        #expect(HabitTimeline.resumeSpan(of: .daily) == 2)
        #expect(HabitTimeline.resumeSpan(of: .everyDays(3)) == 6)
        #expect(HabitTimeline.resumeSpan(of: .timesPerWeek(3)) == 20)
        #expect(HabitTimeline.resumeSpan(of: .timesPerMonth(10)) == 90)
        #expect(HabitTimeline.resumeSpan(of: .timesInDays(times: 4, days: 7)) == 14)
        // A monthly checkpoint at the end of February, read on the 1st of March, reads from January.
        let checkpoint = HabitCheckpoint(
            through: day("2026-02-28"), trailingRun: 0, trailingRunStart: nil, longest: 0, longestStart: nil,
            longestEnd: nil, totalDone: 0, score: 0)
        for today in day("2026-03-01").through(day("2026-05-31")) {
            guard
                let plan = HabitTimeline.resumePlan(
                    from: checkpoint, need: .summary, schedule: .timesPerMonth(10), firstDay: day("2020-01-01"),
                    today: today, weekStart: 1)
            else { continue }
            #expect(plan.origin >= day("2026-03-01").adding(days: -90), "\(today): \(plan.origin)")
        }
    }

    @Test func aCheckpointSumsUpWhatTheWholeHistoryHadThatDay() {
        let t = timeline(.daily, from: "2026-03-01", "xxx.xxsxx.x", today: "2026-03-11")
        let summary = t.summary(through: day("2026-03-09"))
        #expect(summary.trailingRun == 4)
        #expect(summary.trailingRunStart == day("2026-03-05"))
        #expect(
            summary.longest == 4 && summary.longestStart == day("2026-03-05") && summary.longestEnd == day("2026-03-09")
        )
        #expect(summary.totalDone == 7)
        #expect(t.summary(through: t.lastDay).trailingRun == t.currentStreak)
    }

    @Test func theCheckpointDayIsFinalAndEndsAPeriod() {
        let latest = day("2026-03-18")  // a Wednesday
        let first = day("2026-01-01")
        #expect(
            HabitCheckpoint.day(latest: latest, firstDay: first, schedule: .daily, weekStart: 1) == day("2026-03-16"))
        #expect(
            HabitCheckpoint.day(
                latest: latest, firstDay: first, schedule: .timesInDays(times: 2, days: 5), weekStart: 1)
                == day("2026-03-12"))
        #expect(
            HabitCheckpoint.day(latest: latest, firstDay: first, schedule: .timesPerWeek(3), weekStart: 1)
                == day("2026-03-15"))
        #expect(
            HabitCheckpoint.day(latest: latest, firstDay: first, schedule: .timesPerMonth(3), weekStart: 1)
                == day("2026-02-28"))
        // Never before the day before the first day.
        #expect(
            HabitCheckpoint.day(latest: latest, firstDay: day("2026-03-17"), schedule: .daily, weekStart: 1)
                == day("2026-03-16"))
    }

    @Test func theChecksumChangesWithAnyField() {
        let a = HabitCheckpoint(
            through: day("2026-03-09"), trailingRun: 4, trailingRunStart: day("2026-03-05"), longest: 4,
            longestStart: day("2026-03-05"), longestEnd: day("2026-03-09"), totalDone: 7, score: 0.25)
        let b = HabitCheckpoint(
            through: day("2026-03-09"), trailingRun: 4, trailingRunStart: day("2026-03-05"), longest: 5,
            longestStart: day("2026-03-05"), longestEnd: day("2026-03-09"), totalDone: 7, score: 0.25)
        #expect(a.checksum(habitID: 1, basis: "x") == a.checksum(habitID: 1, basis: "x"))
        #expect(a.checksum(habitID: 1, basis: "x") != b.checksum(habitID: 1, basis: "x"))
        #expect(a.checksum(habitID: 1, basis: "x") != a.checksum(habitID: 2, basis: "x"))
        #expect(a.checksum(habitID: 1, basis: "x") != a.checksum(habitID: 1, basis: "y"))
    }
}
