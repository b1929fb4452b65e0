import Foundation
import MorningProofCore
import Testing

@testable import MorningProofSQLite
import MorningProofStoreContract

/// Samoa skipped 2011-12-30: in Pacific/Apia that day is no day at all, for the stored state too.
@Suite struct MissingDayTests {
    static let at = Date(timeIntervalSince1970: 1_325_000_000)

    @Test func aDayTheZoneSkippedBridgesTheStreakInEveryReading() async throws {
        let database = try AppDatabase.inMemory()
        try await database.setSetting(SettingKey.timeZone, to: "Pacific/Apia")
        let habit = try await database.addHabit(
            Habit(name: "Run", createdDay: LocalDay("2011-12-25")!, createdAt: Self.at))
        for day in ["2011-12-25", "2011-12-26", "2011-12-27", "2011-12-28", "2011-12-29", "2011-12-31"] {
            try await database.record(
                Entry(habitID: habit.id, day: LocalDay(day)!, status: .done, recordedAt: Self.at, zone: "Pacific/Apia"))
        }
        let today = LocalDay("2011-12-31")!
        for need in [HistoryNeed.all, .summary, .days(from: LocalDay("2011-12-28")!), .summary] {
            let timeline = try await #require(try database.progress(of: [habit], today: today, need: need).first).timeline
            #expect(timeline.currentStreak == 6, "\(need)")
            #expect(timeline.longestStreak.length == 6, "\(need)")
        }
        // The score grew as over six days in a row: the missing day did not decay it.
        let row = LocalDay("2011-12-25")!
        let straight = HabitTimeline(
            schedule: .daily, firstDay: row, today: row.adding(days: 5),
            entries: Dictionary(uniqueKeysWithValues: (0..<6).map { (row.adding(days: $0), EntryStatus.done) }))
        let apia = try await #require(try database.progress(of: [habit], today: today, need: .all).first).timeline
        #expect(abs(apia.score - straight.score) < 1e-12)
    }
}
