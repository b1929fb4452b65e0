import Foundation
import Testing

@testable import MorningProofCore

/// Daily habits. Histories run from 2026-03-01, one character a day (see `timeline`):
/// x done, s skipped, . empty, t travel; the last character is today unless `today:` says otherwise.
@Suite struct StreakTests {
    @Test func streakEndsTodayWhenTodayIsDone() {
        let t = timeline(.daily, from: "2026-03-01", "xxxxx")
        #expect(t.currentStreak == 5)
        #expect(t.todayState == .done)
        #expect(t.daysUntilBreak == 1)
    }

    @Test func todayEmptyIsOpenAndDoesNotBreakTheStreak() {
        let t = timeline(.daily, from: "2026-03-01", "xxxx.")
        #expect(t.coverageString == "cccco")
        #expect(t.currentStreak == 4)
        #expect(t.todayState == .pending)
        #expect(t.daysUntilBreak == 0)
        #expect(t.status(on: day("2026-03-05"))?.state == "open")
    }

    @Test func anEmptyPastDayEndsTheStreak() {
        let t = timeline(.daily, from: "2026-03-01", "xxx.xx.")
        #expect(t.coverageString == "cccmcco")
        #expect(t.currentStreak == 2)
        #expect(t.status(on: day("2026-03-04"))?.state == "missed")
        let gone = timeline(.daily, from: "2026-03-01", "xxx..")
        #expect(gone.currentStreak == 0)
        #expect(gone.daysUntilBreak == 0)
    }

    @Test func aSkippedDayBridgesWithoutAdding() {
        let t = timeline(.daily, from: "2026-03-01", "xxsxx")
        #expect(t.coverageString == "ccbcc")
        #expect(t.currentStreak == 4)
        #expect(t.longestStreak.length == 4)
        #expect(t.longestStreak.start == day("2026-03-01"))
        #expect(t.longestStreak.end == day("2026-03-05"))
        // Skipped yesterday, today still open: the run stands.
        #expect(timeline(.daily, from: "2026-03-01", "xxs.").currentStreak == 2)
        // Skipped today counts as dealt with.
        let skippedToday = timeline(.daily, from: "2026-03-01", "xxs")
        #expect(skippedToday.todayState == .skipped)
        #expect(skippedToday.currentStreak == 2)
        #expect(skippedToday.daysUntilBreak == 1)
        // Only skips since the last done day: no streak, nothing missed either.
        #expect(timeline(.daily, from: "2026-03-01", "ss.").currentStreak == 0)
    }

    @Test func aTravelDayLeftEmptyBridgesLikeASkip() {
        let t = timeline(.daily, from: "2026-03-01", "xxtxx")
        #expect(t.coverageString == "ccbcc")
        #expect(t.currentStreak == 4)
        #expect(t.status(on: day("2026-03-03"))?.state == "travel")
        // Done on a travel day: a done day like any other.
        #expect(timeline(.daily, from: "2026-03-01", "xxTxx").currentStreak == 5)
    }

    @Test func longestStreakHasItsFirstAndLastDay() {
        let t = timeline(.daily, from: "2026-03-01", "sxxx.xx.xxxxs.x")
        #expect(t.longestStreak.length == 4)
        #expect(t.longestStreak.start == day("2026-03-09"))
        #expect(t.longestStreak.end == day("2026-03-12"))
        #expect(t.currentStreak == 1)
        // Ties keep the earlier run.
        let tie = timeline(.daily, from: "2026-03-01", "xxx.xxx")
        #expect(tie.longestStreak.length == 3)
        #expect(tie.longestStreak.start == day("2026-03-01"))
        #expect(tie.longestStreak.end == day("2026-03-03"))
        // Never done: no longest streak.
        let never = timeline(.daily, from: "2026-03-01", "...")
        #expect(never.longestStreak.length == 0)
        #expect(never.longestStreak.start == nil)
    }

    @Test func totalDoneAndCompletionRate() {
        let t = timeline(.daily, from: "2026-03-01", "xxsx.x")
        #expect(t.totalDone == 4)
        // Due days: 4 done and 1 missed; the skipped day is not due.
        #expect(t.completionRate(lastDays: 7) == 0.8)
        #expect(t.completionRate(lastDays: 2) == 0.5)
        #expect(t.completionRate(lastDays: 1) == 1)
        // Today, still open, is not due yet.
        #expect(timeline(.daily, from: "2026-03-01", "x.x.").completionRate(lastDays: 30) == 2.0 / 3.0)
        #expect(timeline(.daily, from: "2026-03-01", ".").completionRate(lastDays: 7) == nil)
    }

    @Test func entriesBeforeTheFirstDayAreIgnored() {
        let t = HabitTimeline(
            schedule: .daily, firstDay: day("2026-03-05"), today: day("2026-03-06"),
            entries: [day("2026-03-04"): .done, day("2026-03-05"): .done, day("2026-03-06"): .done])
        #expect(t.totalDone == 2)
        #expect(t.currentStreak == 2)
        #expect(t.status(on: day("2026-03-04")) == nil)
    }

    @Test func aHabitCreatedTodayIsPendingWithNoStreak() {
        let t = timeline(.daily, from: "2026-03-01", ".")
        #expect(t.currentStreak == 0)
        #expect(t.todayState == .pending)
        #expect(t.daysUntilBreak == 0)
        #expect(t.score == 0)
    }
}

extension StreakTests {
    @Test func aHabitStartingAfterTodayHasNothingDueYet() {
        let t = HabitTimeline(schedule: .daily, firstDay: day("2026-03-10"), today: day("2026-03-08"), entries: [:])
        #expect(t.currentStreak == 0)
        #expect(t.daysUntilBreak == 0)
        #expect(t.todayState == .pending)
    }
}
