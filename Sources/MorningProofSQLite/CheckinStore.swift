import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: CheckinStore {
    /// The answer of a check-in habit on a day. A done entry without an answer (from `done`) counts as yes.
    /// Another account's habit has none.
    public func checkinAnswer(habitID: Int64, day: LocalDay) async throws -> CheckinAnswer? {
        try await asyncRead { db in
            guard try Self.ownHabit(db, id: habitID, accountID: accountID) != nil else { return nil }
            return try Self.checkinAnswer(db, habitID: habitID, day: day)
        }
    }

    /// The most recent answer of a check-in habit, on any day.
    /// Another account's habit has none.
    public func lastCheckinAnswer(habitID: Int64) async throws -> CheckinAnswer? {
        try await asyncRead { db in
            guard try Self.ownHabit(db, id: habitID, accountID: accountID) != nil else { return nil }
            let row = try Row.fetchOne(
                db,
                sql:
                    "SELECT day, answer, answeredAt FROM checkinAnswer WHERE habitId = ? ORDER BY answeredAt DESC LIMIT 1",
                arguments: [habitID])
            let answer = row.flatMap { Self.answer(from: $0, habitID: habitID) }
            let entry = try Row.fetchOne(
                db,
                sql:
                    "SELECT day, recordedAt FROM entry WHERE habitId = ? AND status = 'done' ORDER BY recordedAt DESC LIMIT 1",
                arguments: [habitID]
            ).flatMap { row -> (day: LocalDay, recordedAt: Date)? in
                LocalDay(row["day"] as String).map { ($0, row["recordedAt"]) }
            }
            return CheckinAnswer.latest(stored: answer, doneEntry: entry, habitID: habitID)
        }
    }

    /// The same as a person's action at `instant`, noted as the day's latest change; with
    /// `lastWriterWins`, an answer older than the day's latest change (`LastWriter`) is `.superseded`.
    public func answerCheckin(
        habitID: Int64, day: LocalDay, yes: Bool, at instant: Date, zone: String, lastWriterWins: Bool
    ) async throws -> CheckinOutcome {
        try await asyncWrite { db in
            try requireOwnHabit(db, habitID)
            if lastWriterWins, try Self.loses(db, habitID: habitID, day: day, at: instant) { return .superseded }
            let existing = try Self.checkinAnswer(db, habitID: habitID, day: day)
            let outcome = CheckinOutcome.of(answering: yes, over: existing?.yes)
            try Self.noteChange(db, habitID: habitID, day: day, at: instant)
            switch outcome {
            case .yesStands, .unchanged, .superseded: return outcome
            case .changedToYes:
                try db.execute(
                    sql:
                        "UPDATE checkinAnswer SET answer = 'yes', answeredAt = ?, zone = ? WHERE habitId = ? AND day = ?",
                    arguments: [instant, zone, habitID, day.description])
            case .answered:
                try db.execute(
                    sql: "INSERT INTO checkinAnswer (habitId, day, answer, answeredAt, zone) VALUES (?, ?, ?, ?, ?)",
                    arguments: [habitID, day.description, yes ? "yes" : "no", instant, zone])
            }
            if yes {
                _ = try Self.record(
                    Entry(habitID: habitID, day: day, status: .done, source: .checkin, recordedAt: instant, zone: zone),
                    in: db)
            }
            return outcome
        }
    }

    static func checkinAnswer(_ db: Database, habitID: Int64, day: LocalDay) throws -> CheckinAnswer? {
        let stored = try Row.fetchOne(
            db, sql: "SELECT day, answer, answeredAt FROM checkinAnswer WHERE habitId = ? AND day = ?",
            arguments: [habitID, day.description]
        ).flatMap { answer(from: $0, habitID: habitID) }
        return CheckinAnswer.standing(stored: stored, entry: try Self.entry(db, habitID: habitID, day: day))
    }

    /// The answer a `checkinAnswer` row holds, or nil for a day no release of this program writes.
    static func answer(from row: Row, habitID: Int64) -> CheckinAnswer? {
        guard let day = LocalDay(row["day"] as String) else { return nil }
        return CheckinAnswer(
            habitID: habitID, day: day, yes: (row["answer"] as String) == "yes", answeredAt: row["answeredAt"])
    }
}
