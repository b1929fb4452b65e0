import Foundation
import MorningProofCore
import MorningProofInterchange
import MorningProofSQLite
import MorningProofStoreContract
import Testing
import ZIPFoundation

@testable import MorningProofService

/// Tests/Fixtures/loop/backup.sql, built into a real backup by sqlite3, imported as of 2026-03-09.
/// For each habit the comment says what Loop Habit Tracker shows for the same data (its streaks are
/// runs of days whose computed value is positive: checks, the days a frequency covers, and skips).
@Suite struct LoopImportTests {
    let folder: URL
    let database: AppDatabase
    let service: ImportService

    init() throws {
        folder = try InterchangeFixtures.temporaryFolder()
        database = try AppDatabase.inMemory()
        service = ImportService(
            database: database, clock: InterchangeFixtures.utc, loopBackupReader: SQLiteLoopBackupReader()
        )
    }

    func run(_ source: ImportSource, apply: Bool = true) async throws -> ImportPlan {
        try await service.run(source, merge: true, apply: apply, now: InterchangeFixtures.now)
    }

    @Test func aBackupImportsWithTheStreaksLoopShows() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let backup = try InterchangeFixtures.loopBackup(in: folder)
        let dryRun = try await run(.loop(backup), apply: false)
        #expect(dryRun.habitsCreated == 6)
        #expect(dryRun.entriesAdded == 99)
        await #expect(try database.habits(includeArchived: true).isEmpty)
        let plan = try await run(.loop(backup))
        #expect(plan == dryRun)
        #expect(
            plan.warnings.map(\.message) == [
                "no habit with id 42; left out", "2026-03-12 is after today (2026-03-09); left out",
                "\"Broken\": frequency 1/0 is not one Loop writes; habit left out",
            ])
        #expect(plan.warnings.first?.description.hasSuffix("Backup 2026-03-09.db (Repetitions id 105): no habit with id 42; left out") == true)

        // Meditate, daily. Loop: streaks of 12 (01-20 to 01-31), 13 (02-02 to 02-14) and 22 (02-16 to
        // 03-09, the current one): the NO on 02-01 and the empty 02-15 break them.
        let meditate = try await database.progress(named: "Meditate")
        #expect(meditate.timeline.currentStreak == 22)
        #expect(meditate.timeline.longestStreak.length == 22)
        #expect(meditate.timeline.longestStreak.start == LocalDay("2026-02-16"))
        #expect(meditate.habit.remindAt == 7 * 60 + 30)
        #expect(meditate.habit.note == "Did you meditate this morning?")
        await #expect(try database.entry(habitID: meditate.habit.id, day: LocalDay("2026-03-01")!)?.note == "Long sit, 40 minutes")

        // Run, 3 in 7 days, done every third day. Loop: one interval of 7 days from each check that
        // starts three checks within 7 days, so 01-05 to 01-17 (13 days) and 01-28 to 03-08 (40 days,
        // current); 03-09 is not covered yet. Ours, three in any 7 days: the same two runs, 03-09 open.
        let run = try await database.progress(named: "Run")
        #expect(run.habit.schedule == .timesInDays(times: 3, days: 7))
        #expect(run.timeline.currentStreak == 40)
        #expect(run.timeline.longestStreak.length == 40)
        #expect(run.timeline.longestStreak.start == LocalDay("2026-01-28"))
        #expect(run.timeline.longestStreak.end == LocalDay("2026-03-08"))
        #expect(run.timeline.status(on: LocalDay("2026-01-17")!)?.coverage == .covered)
        #expect(run.timeline.status(on: LocalDay("2026-01-18")!)?.coverage == .missed)
        #expect(run.timeline.todayState == .pending)

        // Walk, at least 8,000 steps a day. Loop (a day counts when its amount meets the target): 9 days
        // (02-20 to 02-28), broken by 5,000 steps on 03-01, then 8 (03-02 to 03-09, current).
        let walk = try await database.progress(named: "Walk")
        #expect(walk.habit.kind == .metric)
        #expect(walk.habit.goal == MetricGoal(metric: "steps", comparison: .atLeast, target: 8000))
        #expect(walk.timeline.currentStreak == 8)
        #expect(walk.timeline.longestStreak.length == 9)
        await #expect(try database.entry(habitID: walk.habit.id, day: LocalDay("2026-03-02")!)?.value == 8000)
        await #expect(try database.entry(habitID: walk.habit.id, day: LocalDay("2026-03-01")!) == nil)

        // Journal, daily, skipped on 03-04. Loop: one streak of 9 days (03-01 to 03-09), counting the
        // skipped day in its length. Ours: the same run, 03-01 to 03-09, 8 days long, since a skipped
        // day bridges a streak without adding to it.
        let journal = try await database.progress(named: "Journal")
        #expect(journal.timeline.currentStreak == 8)
        #expect(journal.timeline.longestStreak.start == LocalDay("2026-03-01"))
        #expect(journal.timeline.longestStreak.end == LocalDay("2026-03-09"))
        #expect(journal.timeline.status(on: LocalDay("2026-03-04")!)?.state == "skipped")

        // Screen time, at most 120 minutes: 90 and 100 (03-05, 03-06), 150 breaks it, 60 and 30 (03-08,
        // 03-09). Loop: streaks of 2 and 2. Minutes of phone use are no health metric: a manual habit
        // that notes its target.
        let screen = try await database.progress(named: "Screen time")
        #expect(screen.habit.kind == .manual)
        #expect(screen.habit.note == "Minutes on the phone?; Loop target: at most 120 min")
        #expect(screen.timeline.currentStreak == 2)
        #expect(screen.timeline.longestStreak.length == 2)

        // Floss, every 2 days, archived in Loop: archived here, its three days kept.
        let floss = try await database.findHabit(named: "Floss")
        #expect(floss.archived && floss.schedule == .everyDays(2))
        await #expect(try database.entries(habitID: floss.id).count == 3)
        #expect(floss.createdDay == LocalDay("2025-06-01"))
    }

    @Test func theCSVExportFolderAndZipGiveTheSameHistoryAsTheBackup() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let csvFolder = InterchangeFixtures.folder.appendingPathComponent("loop/csv")
        let zip = folder.appendingPathComponent("Loop Habits CSV 2026-03-09.zip")
        try FileManager.default.zipItem(at: csvFolder, to: zip, shouldKeepParent: true)
        let fromBackup = try AppDatabase.inMemory()
        _ = try await ImportService(
            database: fromBackup, clock: InterchangeFixtures.utc, loopBackupReader: SQLiteLoopBackupReader()
        )
            .run(.loop(try InterchangeFixtures.loopBackup(in: folder)), merge: true, apply: true, now: InterchangeFixtures.now)
        func days(_ database: AppDatabase, _ name: String) async throws -> [String] {
            try await database.entries(habitID: database.findHabit(named: name).id).map {
                "\($0.day) \($0.status.rawValue) \($0.value.map { "\($0)" } ?? "-")"
            }
        }
        for source in [ImportSource.loop(csvFolder.path), .loop(zip.path)] {
            let database = try AppDatabase.inMemory()
            let plan = try await ImportService(
                database: database, clock: InterchangeFixtures.utc, loopBackupReader: SQLiteLoopBackupReader()
            )
                .run(source, merge: true, apply: true, now: InterchangeFixtures.now)
            #expect(plan.warnings.isEmpty)
            await #expect(try database.habits().map(\.name) == ["Meditate", "Run", "Walk"])
            for name in ["Meditate", "Run", "Walk"] {
                await #expect(try days(database, name) == days(fromBackup, name), "\(name) from \(source.path)")
            }
            // A note on two lines in the CSV becomes one line.
            let meditate = try await database.findHabit(named: "Meditate")
            await #expect(try database.entry(habitID: meditate.id, day: LocalDay("2026-03-01")!)?.note == "Long sit, 40 minutes felt calm")
            await #expect(try database.progress(named: "Run").timeline.currentStreak == 40)
            await #expect(try database.findHabit(named: "Walk").note == "Walk with the dog")
        }
    }

    @Test func anImportedDayStaysThatDayInAnyZone() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // 2026-03-09T12:00Z is already 03-10 in Kiritimati (UTC+14): Loop's days are dates, not instants.
        let kiritimati = ImportService(
            database: database, clock: DayClock(zoneIdentifier: "Pacific/Kiritimati")!, loopBackupReader: SQLiteLoopBackupReader()
        )
        _ = try await kiritimati.run(
            .loop(try InterchangeFixtures.loopBackup(in: folder)), merge: true, apply: true, now: InterchangeFixtures.now)
        let meditate = try await database.findHabit(named: "Meditate")
        let entries = try await database.entries(habitID: meditate.id)
        #expect(entries.first?.day == LocalDay("2026-01-20"))
        #expect(entries.last?.day == LocalDay("2026-03-09"))
        #expect(entries.last?.zone == "Pacific/Kiritimati")
        // With today 03-10 there, the row of 03-12 is still in the future.
        await #expect(try database.entry(habitID: meditate.id, day: LocalDay("2026-03-12")!) == nil)
    }

    @Test func aFileOfAnotherKindIsRefused() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.db")
        try Data("hello".utf8).write(to: text)
        await #expect(throws: MorningProofError.dataError(
            "\(text.path): not a Loop Habit Tracker backup (.db) or CSV export (.zip or its folder)")) {
            try await run(.loop(text.path))
        }
        let other = folder.appendingPathComponent("other.db")
        try InterchangeFixtures.sqlite3(other.path, "CREATE TABLE t (x);")
        await #expect(throws: StoreError(.badFile, value: other.path,
            "\(other.path): not a Loop Habit Tracker backup (no Habits and Repetitions tables)")) {
            try await run(.loop(other.path))
        }
        await #expect(throws: MorningProofError.noInput("\(folder.path)/missing.db: no such file or folder")) {
            try await run(.loop(folder.path + "/missing.db"))
        }
        await #expect(try database.habits(includeArchived: true).isEmpty)
    }
}
