import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

@Suite("Status and report use cases")
struct ReportServiceTests {
    let database: AppDatabase
    let clock = DayClock(zoneIdentifier: "America/New_York")!
    let read: Habit
    var reports: ReportService { ReportService(database: database, clock: clock) }
    var entries: EntryService { EntryService(database: database, clock: clock) }

    init() async throws {
        database = try AppDatabase.inMemory()
        read = try await HabitService(database: database, clock: clock).add(
            named: "Read", HabitDetails(), now: Self.at("2026-03-01T07:00:00-05:00"))
    }

    static func at(_ text: String) -> Date { ISOInstant.parse(text)! }

    @Test("status: each active habit's state on the day now falls on, in the clock's zone")
    func status() async throws {
        _ = try await entries.record(.done, habit: read, day: nil, now: Self.at("2026-03-07T23:30:00-05:00"))
        // 00:30 on Sunday, before the clocks go forward: a new day, nothing done yet.
        var status = try await reports.status(now: Self.at("2026-03-08T00:30:00-05:00"))
        #expect(status.day == LocalDay("2026-03-08")!)
        #expect(status.zone == "America/New_York")
        #expect(status.habits.map(\.state) == [.pending])
        #expect(status.habits.first?.timeline.currentStreak == 1)
        // 23:30 that evening (UTC-4) is still Sunday.
        _ = try await entries.record(.done, habit: read, day: nil, now: Self.at("2026-03-09T03:30:00Z"))
        status = try await reports.status(now: Self.at("2026-03-09T03:45:00Z"))
        #expect(status.day == LocalDay("2026-03-08")!)
        #expect(status.habits.map(\.state) == [.done])
        #expect(status.habits.first?.timeline.currentStreak == 2)
        _ = try await HabitService(database: database, clock: clock).archive(
            named: "read", now: Self.at("2026-03-09T03:45:00Z"))
        await #expect(try reports.status(now: Self.at("2026-03-09T03:45:00Z")).habits.isEmpty)
    }

    @Test("report: whole weeks back from the last day, the habit's figures, the days and the unlocks")
    func report() async throws {
        _ = try await entries.record(.done, habit: read, day: "2026-03-02", now: Self.at("2026-03-04T07:00:00-05:00"))
        _ = try await database.unlockGate(
            day: LocalDay("2026-03-03")!, at: Self.at("2026-03-03T07:00:00-05:00"), reason: "ill", limit: 1)
        let report = try await reports.report(weeks: 2, now: Self.at("2026-03-04T07:00:00-05:00"))
        // Weeks start on Monday: the week of 2026-03-04 and the one before.
        #expect(report.range.first == LocalDay("2026-02-23")! && report.range.last == LocalDay("2026-03-04")!)
        #expect(report.weekStart == 1)
        #expect(report.gateUnlocks.map(\.reason) == ["ill"])
        let summary = try #require(report.habits.first)
        #expect(summary.habit.name == "Read")
        #expect(summary.days.map(\.day.description) == ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"])
        #expect(summary.days.map(\.state) == ["missed", "done", "missed", "open"])
        #expect(summary.totalDone == 1 && summary.currentStreak == 0 && summary.longestStreak == 1)
        #expect(
            summary.longestStreakStart == LocalDay("2026-03-02")! && summary.longestStreakEnd == LocalDay("2026-03-02")!
        )
        #expect(summary.completionRate7 == 1.0 / 3.0)
        // Each day's score, for the curve: it rises on the done day, falls on a missed one, stays on
        // today (open), and today's is the habit's score.
        let scores = summary.days.map { summary.dayScores[$0.day] ?? -1 }
        #expect(scores[0] == 0 && scores[1] > scores[0] && scores[2] < scores[1] && scores[3] == scores[2])
        #expect(scores[3] == summary.score)
        #expect(HabitReport(summary).days.map(\.score) == scores.map(rounded))
        // Named habits, and a range given by its days.
        let named = try await reports.report(
            habitsNamed: ["re"], from: "-2", to: "yesterday", weeks: 26, now: Self.at("2026-03-04T07:00:00-05:00"))
        #expect(named.range.first == LocalDay("2026-03-02")! && named.range.last == LocalDay("2026-03-03")!)
        #expect(named.habits.first?.days.map(\.state) == ["done", "missed"])
        await #expect(
            throws: MorningProofError.usage("\(field: .from, "2026-03-05") is after \(field: .to, "2026-03-04")")
        ) {
            try await reports.report(from: "2026-03-05", weeks: 2, now: Self.at("2026-03-04T07:00:00-05:00"))
        }
        await #expect(throws: MorningProofError.usage("\(field: .weeks) takes 1 to 520, not 0")) {
            try await reports.report(weeks: 0, now: Self.at("2026-03-04T07:00:00-05:00"))
        }
    }

    @Test("report: a day's score is there on the curve for days before the habit's stored state")
    func scoresBeforeTheStoredState() async throws {
        // 400 days done, each on its day (more than the year of completion rates a report reads
        // anyway); the status of the last day stores the habit's state (its checkpoint).
        let first = LocalDay("2026-03-01")!
        for offset in 0..<400 {
            let day = first.adding(days: offset)
            _ = try await entries.record(.done, habit: read, day: nil, now: Self.at("\(day)T07:00:00-05:00"))
        }
        let last = first.adding(days: 399)
        _ = try await reports.status(now: Self.at("\(last)T08:00:00-05:00"))
        let report = try await reports.report(weeks: 8, now: Self.at("\(last)T09:00:00-05:00"))
        let summary = try #require(report.habits.first)
        #expect(summary.days.count >= 50)
        // Done every day: every day of the range has its score, and each is above the day's before.
        let scores = summary.days.map { summary.dayScores[$0.day] }
        #expect(
            scores.allSatisfy { $0 != nil },
            "days without a score: \(summary.days.filter { summary.dayScores[$0.day] == nil }.map(\.day.description))")
        let known = scores.compactMap { $0 }
        #expect(zip(known, known.dropFirst()).allSatisfy { $0 < $1 })
        #expect(known.last == summary.score)
    }
}
