import Foundation
import MorningProofCore
import Testing

@testable import MorningProofInterchange

@Suite struct HarshTests {
    let context = ImportContext(
        now: Date(timeIntervalSince1970: 1_773_057_600),  // 2026-03-09T12:00:00Z
        clock: DayClock(zoneIdentifier: "UTC")!)

    @Test func frequencies() {
        func frequency(_ text: String) -> [Int]? { HarshRules.frequency(text).map { [$0.target, $0.interval] } }
        #expect(frequency("1") == [1, 1])
        #expect(frequency("7") == [1, 7])
        #expect(frequency("1w") == [1, 7])
        #expect(frequency("2w") == [1, 14])
        #expect(frequency("3/7") == [3, 7])
        #expect(frequency("2/1w") == [2, 7])
        #expect(frequency("0") == [0, 1])
        #expect(frequency("5/3") == nil)
        #expect(frequency("3/0") == nil)
        #expect(frequency("3d") == nil)
        #expect(frequency("x") == nil)
    }

    @Test func frequenciesBecomeSchedules() {
        #expect(HarshRules.schedule(target: 1, interval: 1) == .daily)
        #expect(HarshRules.schedule(target: 1, interval: 7) == .everyDays(7))
        #expect(HarshRules.schedule(target: 3, interval: 7) == .timesInDays(times: 3, days: 7))
        #expect(HarshRules.schedule(target: 7, interval: 7) == .daily)
        // Track only: no streak in harsh, kept as a daily habit here.
        #expect(HarshRules.schedule(target: 0, interval: 1) == .daily)
        #expect(HarshRules.schedule(target: 1, interval: 400) == nil)
    }

    @Test func results() {
        #expect(HarshRules.outcome("y", amount: 1.5) == .done(value: 1.5))
        #expect(HarshRules.outcome("y", amount: 0) == .done(value: nil))
        #expect(HarshRules.outcome("s", amount: nil) == .skipped)
        #expect(HarshRules.outcome("n", amount: nil) == .notDone)
        #expect(HarshRules.outcome("Y", amount: nil) == nil)
    }

    @Test func headingsCommentsEndDatesAndTheLaterLine() {
        let habits = """
            # comment
            ! Morning
            Meditated: 1
            Old: 1: 2026-02-01

            !Bad heading
            Coffee: 0
            Gym: 3/7: 2027-01-01
            """
        let log = """
            2026-01-30 : Old : y
            2026-02-03 : Old : y
            # a comment
            2026-03-01 : Meditated : y : first thought : 0
            2026-03-01 : Meditated : n : on second thought : 0
            2026-03-02 : Meditated : y : good one : 12.5
            2026-03-03 : Meditated : s
            2026-03-04 : Coffee : y :  : two cups
            2026-03-05 : Yoga : y
            2026-03-10 : Meditated : y
            """
        let batch = HarshImport.batch(habits: habits, log: log, habitsFile: "habits", logFile: "log", context: context)
        #expect(batch.habits.map(\.name) == ["Meditated", "Old", "Coffee", "Gym"])
        let meditated = batch.habits[0]
        #expect(meditated.note == "harsh heading: Morning")
        // The later line for 03-01 (n) wins: nothing stored that day.
        #expect(meditated.entries.map(\.day.description) == ["2026-03-02", "2026-03-03"])
        #expect(meditated.entries.map(\.status) == [.done, .skipped])
        #expect(meditated.entries[0].value == 12.5)
        #expect(meditated.entries[0].note == "good one")
        // The first log line, of any result, is the habit's first day.
        #expect(meditated.createdDay == LocalDay("2026-03-01"))
        let old = batch.habits[1]
        #expect(old.archived)
        #expect(old.note == "harsh heading: Morning; harsh: ended 2026-02-01")
        #expect(old.entries.count == 1)
        #expect(batch.habits[2].note == "harsh heading: Morning; harsh: track only (frequency 0)")
        #expect(batch.habits[2].entries.first?.value == nil)
        // An end date still to come is noted, not archived.
        #expect(batch.habits[3].archived == false)
        #expect(batch.habits[3].createdDay == LocalDay("2026-03-09"))
        #expect(
            batch.warnings.map(\.description) == [
                "habits:6: a heading is \"! Name\"; line left out",
                "log:8: amount \"two cups\" is not a number; the day is kept without it",
                "log:9: no habit \"Yoga\" in habits; its 1 log line left out",
                "log:10: 2026-03-10 is after today (2026-03-09); left out",
                "habits:4: \"Old\": 1 log line after its end date 2026-02-01 left out, as harsh ignores them",
            ])
    }

    @Test func badLinesAreWarningsWithTheirLine() {
        let habits = "Run: 3/2\nWalk: 1\nWalk: 1w\n: 1\n"
        let log = "2026-03-01 : Walk\n2026-13-01 : Walk : y\n2026-03-01 : Walk : maybe\n2026-03-01 : Run : y\n"
        let batch = HarshImport.batch(habits: habits, log: log, habitsFile: "h", logFile: "l", context: context)
        #expect(batch.habits.map(\.name) == ["Walk"])
        #expect(
            batch.warnings.map(\.description) == [
                "h:1: \"Run\": frequency \"3/2\" is not 0, N, Nw or T/I (up to 365 days); habit and its log lines left out",
                "h:4: a habit is \"Name: frequency[: YYYY-MM-DD]\"; line left out",
                "l:1: a log line is \"YYYY-MM-DD : Habit : y|n|s : comment : amount\"; left out",
                "l:2: bad date \"2026-13-01\"; left out",
                "l:3: result \"maybe\" is not y, n or s; left out",
                "h:3: a second habit named \"Walk\"; left out",
            ])
    }
}
