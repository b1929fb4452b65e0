import Foundation
import MorningProofCore
import MorningProofInterchange
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

/// Tests/Fixtures/harsh (habits and log, every day of each habit answered, as `harsh ask` does),
/// imported as of 2026-03-09. For each habit the comment says what harsh shows for the same data
/// (`harsh log --json`: current_streak and longest_streak count the days done, satisfied by the
/// frequency, or skipped; a day left unsatisfied ends the run).
@Suite struct HarshImportTests {
    let database: AppDatabase
    let service: ImportService
    let harsh = InterchangeFixtures.folder.appendingPathComponent("harsh").path

    init() throws {
        database = try AppDatabase.inMemory()
        service = ImportService(
            database: database, clock: InterchangeFixtures.utc, loopBackupReader: SQLiteLoopBackupReader()
        )
    }

    @Test func aHarshFolderImportsWithTheStreaksHarshShows() async throws {
        let plan = try await service.run(.harsh(harsh), merge: true, apply: true, now: InterchangeFixtures.now)
        await #expect(try database.habits(includeArchived: true).map(\.name) == [
            "Meditated", "Stretched", "Gym", "Long run", "Coffee", "Old habit",
        ])

        // Meditated, 1: y from 02-01 to 03-09, but 02-15 has a y and then, on a later line, an n:
        // the later line wins. harsh: current_streak 22 and longest_streak 22 (02-16 to 03-09).
        let meditated = try await database.progress(named: "Meditated")
        #expect(meditated.timeline.currentStreak == 22)
        #expect(meditated.timeline.longestStreak.length == 22)
        await #expect(try database.entry(habitID: meditated.habit.id, day: LocalDay("2026-02-15")!) == nil)
        #expect(meditated.habit.note == "harsh heading: Morning")

        // Gym, 3/7: y on 02-01, 04, 07, 10, then 02-20, 23, 26, 03-01, 04, 07, 09, n on every other day.
        // harsh: 10 (02-01 to 02-10), then unsatisfied days, then 18 (02-20 to 03-09, current).
        // Ours, 3 times in any 7 days (harsh's window rule): the same.
        let gym = try await database.progress(named: "Gym")
        #expect(gym.habit.schedule == .timesInDays(times: 3, days: 7))
        #expect(gym.timeline.currentStreak == 18)
        #expect(gym.timeline.longestStreak.length == 18)
        #expect(gym.timeline.status(on: LocalDay("2026-02-10")!)?.coverage == .covered)
        #expect(gym.timeline.status(on: LocalDay("2026-02-11")!)?.coverage == .missed)
        let legDay = try await database.entry(habitID: gym.habit.id, day: LocalDay("2026-03-09")!)
        #expect(legDay?.note == "Leg day" && legDay?.value == 1.5)

        // Long run, 1w: y each Monday from 02-02, n on the other days. harsh: 36 (02-02 to 03-09), each
        // day satisfied by the run of the last 7 days. Ours, every 7 days: the same.
        let longRun = try await database.progress(named: "Long run")
        #expect(longRun.habit.schedule == .everyDays(7))
        #expect(longRun.timeline.currentStreak == 36)
        await #expect(try database.entry(habitID: longRun.habit.id, day: LocalDay("2026-02-09")!)?.value == 10)

        // Stretched, 1: y 03-01 to 03-03, s on 03-04, y 03-05 to 03-09. harsh: 9, counting the skip.
        // Ours: the same run, 8 days long (a skipped day bridges without adding).
        let stretched = try await database.progress(named: "Stretched")
        #expect(stretched.timeline.currentStreak == 8)
        #expect(stretched.timeline.longestStreak.start == LocalDay("2026-03-01"))
        await #expect(try database.entry(habitID: stretched.habit.id, day: LocalDay("2026-03-04")!)?.note == "Sore back")

        // Coffee, 0: tracking only, harsh shows no streak. Kept as a daily habit that says so.
        let coffee = try await database.findHabit(named: "Coffee")
        #expect(coffee.note == "harsh heading: Tracking only; harsh: track only (frequency 0)")
        await #expect(try database.entries(habitID: coffee.id).count == 18)

        // Old habit, 1, ended 2026-01-31: archived, its 12 days kept, the line after its end left out.
        let old = try await database.findHabit(named: "Old habit")
        #expect(old.archived)
        await #expect(try database.entries(habitID: old.id).count == 12)

        #expect(
            plan.warnings.map { $0.description.replacingOccurrences(of: harsh, with: "harsh") } == [
                "harsh/habits:16: a heading is \"! Name\"; line left out",
                "harsh/habits:17: \"Too often\": frequency \"5/3\" is not 0, N, Nw or T/I (up to 365 days); habit and its log lines left out",
                "harsh/habits:18: a habit is \"Name: frequency[: YYYY-MM-DD]\"; line left out",
                "harsh/log:153: a log line is \"YYYY-MM-DD : Habit : y|n|s : comment : amount\"; left out",
                "harsh/log:154: bad date \"2026-02-30\"; left out",
                "harsh/log:155: result \"x\" is not y, n or s; left out",
                "harsh/log:156: no habit \"Yoga\" in harsh/habits; its 2 log lines left out",
                "harsh/habits:15: \"Old habit\": 1 log line after its end date 2026-01-31 left out, as harsh ignores them",
            ])
    }

    @Test func aFolderWithoutItsFilesIsRefused() async throws {
        let folder = try InterchangeFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("Run: 1\n".utf8).write(to: folder.appendingPathComponent("habits"))
        await #expect(throws: MorningProofError.noInput("\(folder.path)/log: no such file (a harsh folder holds habits and log)")) {
            try await service.run(.harsh(folder.path), merge: true, apply: true, now: InterchangeFixtures.now)
        }
        await #expect(throws: MorningProofError.dataError("\(folder.path)/habits is not a folder (harsh keeps habits and log in one)")) {
            try await service.run(.harsh(folder.path + "/habits"), merge: true, apply: true, now: InterchangeFixtures.now)
        }
    }
}
