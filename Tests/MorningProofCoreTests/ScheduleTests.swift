import Foundation
import Testing

@testable import MorningProofCore

/// Every schedule kind but daily (see StreakTests). 2026-03-02 is a Monday, 2026-03-01 a Sunday.
@Suite struct ScheduleTests {
    // MARK: --every N

    @Test func everyDoneDayCoversItselfAndTheNextNMinusOne() {
        let t = timeline(.everyDays(3), from: "2026-03-01", "x..x..x")
        #expect(t.coverageString == "ccccccc")
        #expect(t.currentStreak == 7)
        // Done today (the 7th): the 8th and 9th are covered, the 10th is due.
        #expect(t.daysUntilBreak == 3)
        let waiting = timeline(.everyDays(3), from: "2026-03-01", "x...")
        #expect(waiting.coverageString == "ccco")
        #expect(waiting.currentStreak == 3)
        #expect(waiting.daysUntilBreak == 0)
        #expect(timeline(.everyDays(3), from: "2026-03-01", "x.").todayState == .notDue)
    }

    @Test func everyLateDayBreaksTheRun() {
        let t = timeline(.everyDays(3), from: "2026-03-01", "x..x...x..")
        #expect(t.coverageString == "ccccccmccc")
        #expect(t.currentStreak == 3)
        #expect(t.longestStreak.length == 6)
        #expect(t.longestStreak.start == day("2026-03-01"))
        #expect(t.longestStreak.end == day("2026-03-06"))
        // Today (the 10th) is covered by the 8th; the 11th is due.
        #expect(t.daysUntilBreak == 1)
    }

    @Test func everySkippedDayNeverAdds() {
        // A skip inside a covered span bridges; a skip on the due day excuses that day only.
        #expect(timeline(.everyDays(3), from: "2026-03-01", "xs.").coverageString == "cbc")
        #expect(timeline(.everyDays(3), from: "2026-03-01", "x..s.").currentStreak == 3)
        #expect(timeline(.everyDays(3), from: "2026-03-01", "x..s..").currentStreak == 0)
    }

    // MARK: --times K --per week

    @Test func weekWithKDoneDaysCoversAllItsDays() {
        let t = timeline(.timesPerWeek(3), from: "2026-03-02", "x.x.x..x.x")
        #expect(t.coverageString == "cccccccooo")
        // The current week is open (2 of 3 by Wednesday): it adds nothing yet.
        #expect(t.currentStreak == 7)
        #expect(t.todayState == .done)
        let met = timeline(.timesPerWeek(3), from: "2026-03-02", "x.x.x..xxx.")
        #expect(met.currentStreak == 11)
        #expect(met.todayState == .notDue)
        // Next week (16th to 22nd) needs 3 days: waiting is fine until Friday the 20th.
        #expect(met.daysUntilBreak == 8)
    }

    @Test func currentWeekOpenWhileReachableThenBroken() {
        let monday = timeline(.timesPerWeek(3), from: "2026-03-02", "x.x.x...")
        #expect(monday.currentStreak == 7)
        // Monday to Thursday may stay undone; then Friday, Saturday and Sunday are all needed.
        #expect(monday.daysUntilBreak == 4)
        let saturday = timeline(.timesPerWeek(3), from: "2026-03-02", "x.x.x..x.....")
        #expect(saturday.today == day("2026-03-14"))
        #expect(saturday.currentStreak == 7)
        #expect(saturday.daysUntilBreak == 0)
        let sunday = timeline(.timesPerWeek(3), from: "2026-03-02", "x.x.x..x......")
        #expect(sunday.coverageString == "ccccccc" + String(repeating: "m", count: 7))
        #expect(sunday.currentStreak == 0)
        #expect(sunday.status(on: day("2026-03-09"))?.state == "done")
    }

    @Test func weekAlreadyLostNeedsNothingToday() {
        // Monday the 2nd to today, Saturday (a travel day): 1 done, 3 needed, only Sunday left.
        let t = timeline(.timesPerWeek(3), from: "2026-02-02", ".s.x.t")
        #expect(t.coverageString == "mbmmmb")
        #expect(t.currentStreak == 0)
        #expect(t.daysUntilBreak == 0)
    }

    @Test func weekStartDecidesWhichDaysFormAWeek() {
        // Sunday the 1st to Saturday the 7th holds three done days.
        let sundayWeeks = timeline(.timesPerWeek(3), from: "2026-03-01", "x.x.x...", weekStart: 7)
        #expect(sundayWeeks.coverageString == "ccccccco")
        #expect(sundayWeeks.currentStreak == 7)
        // With Monday weeks, the 1st is alone in its week (target 1, met), and the week of the
        // 2nd has 2 done days with only Sunday the 8th left: still open.
        let mondayWeeks = timeline(.timesPerWeek(3), from: "2026-03-01", "x.x.x...", weekStart: 1)
        #expect(mondayWeeks.coverageString == "coooooo" + "o")
        #expect(mondayWeeks.currentStreak == 1)
        #expect(mondayWeeks.daysUntilBreak == 0)
    }

    @Test func weekCreatedMidWeekNeedsOnlyWhatTheRestCanHold() {
        // Created Saturday the 7th: two days left in the week, so 3 a week asks for 2.
        #expect(timeline(.timesPerWeek(3), from: "2026-03-07", "xx").currentStreak == 2)
        let half = timeline(.timesPerWeek(3), from: "2026-03-07", "x.")
        #expect(half.coverageString == "oo")
        #expect(half.daysUntilBreak == 0)
        #expect(timeline(.timesPerWeek(3), from: "2026-03-07", "x.", today: "2026-03-09").currentStreak == 0)
    }

    @Test func weekSkippedDaysLowerTheTargetToWhatIsLeft() {
        #expect(timeline(.timesPerWeek(3), from: "2026-03-02", "xxsssss").coverageString == "ccbbbbb")
        #expect(timeline(.timesPerWeek(3), from: "2026-03-02", "xxsssss").currentStreak == 2)
        #expect(timeline(.timesPerWeek(3), from: "2026-03-02", "xxssss.").coverageString == "oobbbbo")
        #expect(timeline(.timesPerWeek(3), from: "2026-03-02", "xxs....", today: "2026-03-09").currentStreak == 0)
    }

    @Test func weekCompletionRateCountsTheDaysOfJudgedWeeks() {
        // A met week (7 covered days), a missed week (7 missed), the current week open.
        let t = timeline(.timesPerWeek(3), from: "2026-03-02", "x.x.x.." + "x.....x" + "xx")
        #expect(t.completionRate(lastDays: 30) == 0.5)
        #expect(t.completionRate(lastDays: 9) == 0)
        #expect(t.totalDone == 7)
        #expect(t.longestStreak.length == 7)
        #expect(t.longestStreak.end == day("2026-03-08"))
    }

    // MARK: --times K --per month

    @Test func monthWithKDoneDaysCoversTheMonth() {
        let feb = "x" + String(repeating: ".", count: 13) + "x" + String(repeating: ".", count: 13)
        let t = timeline(.timesPerMonth(2), from: "2026-02-01", feb + ".........", today: "2026-03-10")
        #expect(t.currentStreak == 28)
        #expect(t.status(on: day("2026-03-10"))?.coverage == .open)
        // March needs 2 days: the 30th and 31st are the last chance, 20 days from the 10th.
        #expect(t.daysUntilBreak == 20)
        let short = timeline(.timesPerMonth(2), from: "2026-02-01", "x" + String(repeating: ".", count: 28))
        #expect(short.today == day("2026-03-01"))
        #expect(short.currentStreak == 0)
        #expect(short.status(on: day("2026-02-01"))?.coverage == .missed)
    }

    @Test func monthCreatedLateAsksForWhatFits() {
        // Created on the 27th of February with 10 a month: only 2 days left, both needed.
        let t = timeline(.timesPerMonth(10), from: "2026-02-27", "xx.")
        #expect(t.coverageString == "cco")
        #expect(t.currentStreak == 2)
    }

    // MARK: --times K --in N (harsh's rule)

    @Test func rollingWindowCoversDaysAroundKDoneDays() {
        let t = timeline(.timesInDays(times: 2, days: 4), from: "2026-03-01", "x.x.x.x")
        #expect(t.coverageString == "ccccccc")
        #expect(t.currentStreak == 7)
        // Done on the 1st (day 0) of the habit: the window reaching before it asks for one.
        #expect(timeline(.timesInDays(times: 2, days: 7), from: "2026-03-01", "x").currentStreak == 1)
    }

    @Test func rollingWindowNeedsADoneDayOnOrBeforeTheDay() {
        // Days 0 and 1 lie in a window with two done days (2 and 3), but none on or before them.
        let t = timeline(.timesInDays(times: 2, days: 4), from: "2026-03-01", "..xx")
        #expect(t.coverageString == "mmcc")
        #expect(t.currentStreak == 2)
    }

    @Test func rollingWindowPastDayIsOpenOnlyWhileItCanStillBeCovered() {
        // Done on day 1 of 2 in 4: doing it today or tomorrow covers days 1 to 3, so they are open.
        let waiting = timeline(.timesInDays(times: 2, days: 4), from: "2026-03-01", ".x..")
        #expect(waiting.coverageString == "mooo")
        #expect(waiting.daysUntilBreak == 1)
        // Once in 3 days, done on day 0 only: days 3 and 4 can never have a done day on or before
        // them in a window, so they are missed and the streak is gone.
        let gone = timeline(.timesInDays(times: 1, days: 3), from: "2026-03-01", "x.....")
        #expect(gone.coverageString == "cccmmo")
        #expect(gone.currentStreak == 0)
        #expect(gone.daysUntilBreak == 0)
    }

    @Test func rollingWindowDaysUntilBreakWatchesOpenPastDays() {
        // 3 in 4, done on days 0 and 2 (today): day 1 is open until a window holding it gets a
        // third done day; only day 3 can give it one (window 0 to 3). Left undone tomorrow, day 1
        // turns missed and the run through day 0 ends, though days 2 and on could still be covered.
        let t = timeline(.timesInDays(times: 3, days: 4), from: "2026-03-01", "x.x")
        #expect(t.coverageString == "coo")
        #expect(t.daysUntilBreak == 1)
        let tomorrowUndone = timeline(.timesInDays(times: 3, days: 4), from: "2026-03-01", "x.x.", today: "2026-03-05")
        #expect(tomorrowUndone.status(on: day("2026-03-02"))?.coverage == .missed)
        #expect(tomorrowUndone.currentStreak == 0)
    }

    @Test func rollingWindowDaysUntilBreak() {
        // Done on days 0 and 3 of 2 in 4: doing it on day 6 still covers 4 and 5 with day 3.
        let t = timeline(.timesInDays(times: 2, days: 4), from: "2026-03-01", "x..x")
        #expect(t.coverageString == "cccc")
        #expect(t.daysUntilBreak == 3)
    }

    @Test func rollingWindowSkipsBridgeAndLowerTheTarget() {
        // 3 in 3 with day 1 skipped: the window of days 0 to 2 can hold 2 and has them.
        #expect(timeline(.timesInDays(times: 3, days: 3), from: "2026-03-01", "xsx").coverageString == "cbc")
        #expect(timeline(.timesInDays(times: 3, days: 3), from: "2026-03-01", "x.x").coverageString == "cmo")
        // A skip inside a covered window bridges: it never adds to the streak.
        #expect(timeline(.timesInDays(times: 3, days: 4), from: "2026-03-01", "xsxx").currentStreak == 3)
        #expect(timeline(.timesInDays(times: 3, days: 4), from: "2026-03-01", "x.xx").currentStreak == 4)
    }
}
