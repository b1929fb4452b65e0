import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Check-in answers, as `AppDatabase`'s: a yes stands for the day (`CheckinOutcome.of`), and a done
/// entry recorded some other way answers yes (`CheckinAnswer.standing`). Another account's habit
/// has no answers.
extension PostgresStore: CheckinStore {
    /// The answer of a check-in habit on a day (`CheckinAnswer.standing`).
    public func checkinAnswer(habitID: Int64, day: LocalDay) async throws -> CheckinAnswer? {
        try await transaction(.snapshot) { connection in
            guard try await Self.ownHabit(connection, id: habitID, accountID: accountID, logger: logger) != nil
            else { return nil }
            return try await Self.checkinAnswer(connection, habitID: habitID, day: day, logger: logger)
        }
    }

    /// The most recent answer of a check-in habit, on any day (`CheckinAnswer.latest`).
    public func lastCheckinAnswer(habitID: Int64) async throws -> CheckinAnswer? {
        try await transaction(.snapshot) { connection in
            guard try await Self.ownHabit(connection, id: habitID, accountID: accountID, logger: logger) != nil
            else { return nil }
            let stored = try await connection.query(
                """
                SELECT day, answer, answeredAt FROM checkinAnswer WHERE habitId = \(habitID)
                ORDER BY answeredAt DESC LIMIT 1
                """, logger: logger
            ).collect().first.flatMap { try Self.answer(from: $0, habitID: habitID) }
            let done = try await connection.query(
                """
                SELECT day, recordedAt FROM entry WHERE habitId = \(habitID) AND status = 'done'
                ORDER BY recordedAt DESC LIMIT 1
                """, logger: logger
            ).collect().first.flatMap { row -> (day: LocalDay, recordedAt: Date)? in
                let (day, recordedAt) = try row.decode((String, Date).self)
                return LocalDay(day).map { ($0, recordedAt) }
            }
            return CheckinAnswer.latest(stored: stored, doneEntry: done, habitID: habitID)
        }
    }

    /// The same as a person's action at `instant`, noted as the day's latest change; with
    /// `lastWriterWins`, an answer older than the day's latest change (`LastWriter`) is `.superseded`.
    public func answerCheckin(
        habitID: Int64, day: LocalDay, yes: Bool, at instant: Date, zone: String, lastWriterWins: Bool
    ) async throws -> CheckinOutcome {
        try await transaction(.writing) { connection in
            try await Self.requireOwnHabit(connection, habitID, accountID: accountID, logger: logger)
            if lastWriterWins, try await Self.loses(connection, habitID: habitID, day: day, at: instant, logger: logger)
            {
                return .superseded
            }
            try await Self.noteChange(connection, habitID: habitID, day: day, at: instant, logger: logger)
            let existing = try await Self.checkinAnswer(connection, habitID: habitID, day: day, logger: logger)
            let outcome = CheckinOutcome.of(answering: yes, over: existing?.yes)
            switch outcome {
            case .yesStands, .unchanged, .superseded: return outcome
            case .changedToYes:
                try await connection.query(
                    """
                    UPDATE checkinAnswer SET answer = 'yes', answeredAt = \(instant), zone = \(zone)
                    WHERE habitId = \(habitID) AND day = \(day.description)
                    """, logger: logger)
            case .answered:
                try await connection.query(
                    """
                    INSERT INTO checkinAnswer (habitId, day, answer, answeredAt, zone)
                    VALUES (\(habitID), \(day.description), \(yes ? "yes" : "no"), \(instant), \(zone))
                    """, logger: logger)
            }
            if yes {
                _ = try await Self.record(
                    Entry(
                        habitID: habitID, day: day, status: .done, source: .checkin, recordedAt: instant, zone: zone
                    ),
                    connection, logger: logger)
            }
            return outcome
        }
    }

    static func checkinAnswer(_ connection: PostgresConnection, habitID: Int64, day: LocalDay, logger: Logger)
        async throws -> CheckinAnswer?
    {
        CheckinAnswer.standing(
            stored: try await storedAnswer(connection, habitID: habitID, day: day, logger: logger),
            entry: try await entry(connection, habitID: habitID, day: day, logger: logger))
    }

    /// The answer stored for a habit's day, if any.
    static func storedAnswer(_ connection: PostgresConnection, habitID: Int64, day: LocalDay, logger: Logger)
        async throws -> CheckinAnswer?
    {
        try await connection.query(
            "SELECT day, answer, answeredAt FROM checkinAnswer WHERE habitId = \(habitID) AND day = \(day.description)",
            logger: logger
        ).collect().first.flatMap { try answer(from: $0, habitID: habitID) }
    }

    private static func answer(from row: PostgresRow, habitID: Int64) throws -> CheckinAnswer? {
        let (day, answer, answeredAt) = try row.decode((String, String, Date).self)
        return LocalDay(day).map {
            CheckinAnswer(habitID: habitID, day: $0, yes: answer == "yes", answeredAt: answeredAt)
        }
    }
}
