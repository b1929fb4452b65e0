import Foundation
import Testing

@testable import MorningProofCore

/// Today on a travel day: safe for the streak, still open to be done (it read "skipped" once, and
/// the web app then offered only Undo).
@Suite struct TravelDayStateTests {
    let change = ZoneChange(
        at: instant("2026-03-11T17:00:00Z"), from: clock("Pacific/Honolulu"), to: clock("Asia/Tokyo"))

    func today(_ entries: [LocalDay: EntryStatus]) -> HabitTimeline {
        HabitTimeline(
            schedule: .daily, firstDay: day("2026-03-09"), today: day("2026-03-12"),
            entries: [day("2026-03-09"): .done, day("2026-03-10"): .done].merging(entries) { _, new in new },
            travelDays: change.travelDays)
    }

    @Test func aZoneChangeTodayIsATravelDayThatSaysTheStreakIsSafe() {
        let timeline = today([:])
        #expect(timeline.todayState == .travel)
        #expect(TodayState.travel.rawValue == "travel")
        #expect(TodayState.travel.sentence == "travel day: your streak is safe")
        #expect(timeline.currentStreak == 2)
        // Safe for the gate too: nothing more is needed today.
        #expect(GateDecision.isSettled(.travel))
        #expect(TodayState.pending.sentence == nil && TodayState.skipped.sentence == nil)
    }

    @Test func doneOnATravelDayReadsDoneAndSkippedReadsSkipped() {
        let done = today([day("2026-03-12"): .done])
        #expect(done.todayState == .done)
        #expect(done.currentStreak == 3)
        #expect(today([day("2026-03-12"): .skipped]).todayState == .skipped)
    }
}

/// Last writer wins on a day of a habit, for actions a phone sends with the instant they happened.
@Suite struct LastWriterTests {
    let nine = instant("2026-03-11T09:00:00Z")

    func entry(at date: Date) -> Entry {
        Entry(habitID: 1, day: day("2026-03-11"), status: .done, recordedAt: date, zone: "UTC")
    }

    @Test func anActionOlderThanTheDaysLatestChangeLoses() {
        #expect(!LastWriter.loses(nine, entry: nil, answeredAt: nil, lastChange: nil))
        #expect(LastWriter.loses(nine, entry: entry(at: nine + 1), answeredAt: nil, lastChange: nil))
        #expect(LastWriter.loses(nine, entry: nil, answeredAt: nine + 60, lastChange: nil))
        // An undo at 09:30 leaves its instant: a done from 09:10 sent later loses to it.
        #expect(LastWriter.loses(nine + 600, entry: nil, answeredAt: nil, lastChange: nine + 1800))
        // The latest of them counts, however old the others.
        #expect(!LastWriter.loses(nine + 3600, entry: entry(at: nine), answeredAt: nil, lastChange: nine + 1800))
        // The same instant again is a retry: it does not lose.
        #expect(!LastWriter.loses(nine, entry: entry(at: nine), answeredAt: nil, lastChange: nine))
        // An entry a goal or an import recorded later loses to a person's action: manual wins.
        var metric = entry(at: nine + 3600)
        metric.source = .metric
        #expect(!LastWriter.loses(nine, entry: metric, answeredAt: nil, lastChange: nil))
        metric.source = .import
        #expect(!LastWriter.loses(nine, entry: metric, answeredAt: nil, lastChange: nil))
        metric.source = .photo
        #expect(LastWriter.loses(nine, entry: metric, answeredAt: nil, lastChange: nil))
    }

    @Test func anInstantAheadOfTheServerIsHeldAtNowWithinTheSkewAndFutureBeyond() {
        #expect(LastWriter.instant(of: nil, now: nine) == nine)
        #expect(LastWriter.instant(of: nine - 60, now: nine) == nine - 60)
        #expect(LastWriter.instant(of: nine + 120, now: nine) == nine)
        #expect(!LastWriter.isFuture(nine + 300, now: nine))
        #expect(LastWriter.isFuture(nine + 301, now: nine))
        #expect(!LastWriter.isFuture(nine - 86_400 * 30, now: nine))
    }
}
