import Foundation
import MorningProofCore
import Testing

@testable import MorningProofInterchange

@Suite struct LoopRulesTests {
    @Test func frequenciesBecomeSchedules() {
        #expect(LoopRules.schedule(numerator: 1, denominator: 1) == .daily)
        // Loop turns n/n into 1/1 itself; more per window than days is daily too.
        #expect(LoopRules.schedule(numerator: 7, denominator: 7) == .daily)
        #expect(LoopRules.schedule(numerator: 1, denominator: 7) == .everyDays(7))
        #expect(LoopRules.schedule(numerator: 1, denominator: 2) == .everyDays(2))
        // Loop counts rolling windows, so "3 times per week" is three in any seven days.
        #expect(LoopRules.schedule(numerator: 3, denominator: 7) == .timesInDays(times: 3, days: 7))
        #expect(LoopRules.schedule(numerator: 2, denominator: 30) == .timesInDays(times: 2, days: 30))
        #expect(LoopRules.schedule(numerator: 1, denominator: 0) == nil)
        #expect(LoopRules.schedule(numerator: 0, denominator: 7) == nil)
        #expect(LoopRules.schedule(numerator: 1, denominator: 400) == nil)
    }

    @Test func yesNoValues() {
        func outcome(_ value: Int) -> DayOutcome? {
            LoopRules.outcome(value: value, numerical: false, atMost: false, target: 0)
        }
        #expect(outcome(2) == .done(value: nil))  // YES_MANUAL
        #expect(outcome(3) == .skipped)  // SKIP
        #expect(outcome(1) == .notDone)  // YES_AUTO: the schedule covers the day by itself
        #expect(outcome(0) == .notDone)  // NO
        #expect(outcome(-1) == .notDone)  // UNKNOWN
        #expect(outcome(7) == nil)
    }

    @Test func numericalValuesAreAmountsTimesAThousand() {
        func atLeast(_ value: Int) -> DayOutcome? {
            LoopRules.outcome(value: value, numerical: true, atMost: false, target: 8000)
        }
        func atMost(_ value: Int) -> DayOutcome? {
            LoopRules.outcome(value: value, numerical: true, atMost: true, target: 120)
        }
        #expect(atLeast(9_000_000) == .done(value: 9000))
        #expect(atLeast(8_000_000) == .done(value: 8000))
        #expect(atLeast(7_999_000) == .notDone)
        #expect(atLeast(3) == .skipped)
        #expect(atMost(90_000) == .done(value: 90))
        #expect(atMost(0) == .done(value: 0))
        #expect(atMost(150_000) == .notDone)
        // An at-most day counts only when something was recorded.
        #expect(atMost(-1) == .notDone)
        #expect(atMost(-5) == nil)
    }

    @Test func timestampsAreUTCMidnightsOfLocalDates() {
        #expect(LoopRules.day(timestamp: 1_772_755_200_000) == LocalDay("2026-03-06"))
        // A time of day is dropped, as Loop's Timestamp does.
        #expect(LoopRules.day(timestamp: 1_772_755_200_000 + 3_600_000) == LocalDay("2026-03-06"))
        #expect(LoopRules.day(timestamp: -1) == nil)
    }

    @Test func remindersAndGoals() {
        #expect(LoopRules.reminder(hour: 7, minute: 30) == 450)
        #expect(LoopRules.reminder(hour: nil, minute: 30) == nil)
        #expect(LoopRules.reminder(hour: 24, minute: 0) == nil)
        #expect(
            LoopRules.goal(unit: "steps", atMost: false, target: 8000)
                == MetricGoal(metric: "steps", comparison: .atLeast, target: 8000))
        #expect(LoopRules.goal(unit: "pages", atMost: false, target: 20) == nil)
        #expect(LoopRules.goal(unit: "min", atMost: true, target: 120) == nil)
    }

    @Test func aBackupBecomesHabitsWithWarningsForBadRows() {
        let file = "loop.db"
        func origin(_ text: String) -> ImportWarning.Origin { .init(file: file, place: .path(text)) }
        func ms(_ day: String) -> Int64 { Int64(LocalDay(day)!.dayNumber) * 86_400_000 }
        let backup = LoopBackup(
            habits: [
                .init(
                    id: 1, position: 1, name: "Read", question: "Did you read?", numerator: 1, denominator: 1,
                    type: 1, targetValue: 20, unit: "pages", reminderHour: 21, reminderMinute: 0,
                    origin: origin("Habits id 1")),
                .init(id: 2, position: 0, name: "Floss", numerator: 1, denominator: 2, archived: true, origin: origin("Habits id 2")),
                .init(id: 3, position: 2, name: "bad\u{1B}name", numerator: 1, denominator: 1, origin: origin("Habits id 3")),
            ],
            repetitions: [
                .init(habitID: 1, timestamp: ms("2026-03-01"), value: 25_000, notes: "two\nlines", origin: origin("r1")),
                .init(habitID: 1, timestamp: ms("2026-03-02"), value: 10_000, notes: "short", origin: origin("r2")),
                .init(habitID: 2, timestamp: ms("2026-03-03"), value: 3, origin: origin("r3")),
                .init(habitID: 9, timestamp: ms("2026-03-03"), value: 2, origin: origin("r4")),
            ])
        let context = ImportContext(now: Date(timeIntervalSince1970: 1_773_057_600), clock: DayClock(zoneIdentifier: "UTC")!)
        let batch = LoopImport.batch(backup, context: context)
        // Ordered by Loop's position.
        #expect(batch.habits.map(\.name) == ["Floss", "Read"])
        let read = batch.habits[1]
        #expect(read.kind == .manual)
        #expect(read.note == "Did you read?; Loop target: at least 20 pages")
        #expect(read.remindAt == 21 * 60)
        #expect(read.createdDay == LocalDay("2026-03-01"))
        #expect(read.entries.map(\.day) == [LocalDay("2026-03-01")!])
        #expect(read.entries.first?.value == 25)
        #expect(read.entries.first?.note == "two lines")
        #expect(read.entries.first?.source == .import)
        #expect(batch.habits[0].archived)
        #expect(batch.habits[0].schedule == .everyDays(2))
        #expect(batch.habits[0].entries.map(\.status) == [.skipped])
        #expect(
            batch.warnings.map(\.description) == [
                "loop.db (r4): no habit with id 9; left out",
                "loop.db (Habits id 1): \"Read\": 1 note on days not done or skipped left out",
                "loop.db (Habits id 3): habit name contains the control character U+001B; use plain text on one line; habit and its repetitions left out",
            ])
    }
}
