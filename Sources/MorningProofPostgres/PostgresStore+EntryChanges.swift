import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

extension PostgresSchema {
    /// The instant a person last acted on a day of a habit (SQLite's "v12-entry-changes", column
    /// for column), which last writer wins (`LastWriter`) reads; an undo leaves its instant here.
    static let v8: [String] = [
        """
        CREATE TABLE entryChange (
            habitId bigint NOT NULL REFERENCES habit (id) ON DELETE CASCADE,
            day text NOT NULL,
            changedAt timestamptz NOT NULL,
            PRIMARY KEY (habitId, day)
        )
        """
    ]
}

/// A person's actions on a day under last writer wins, as `AppDatabase`'s: the rule is
/// `LastWriter.loses`, applied with these inside the transaction that holds the habit's row
/// (`recordAction`, `clearDay(at:)`, `answerCheckin`), so that two devices' actions are decided one
/// after the other on what is stored.
extension PostgresStore {
    /// Whether an action at `instant` loses to what the day of the habit holds (`LastWriter.loses`).
    static func loses(_ connection: PostgresConnection, habitID: Int64, day: LocalDay, at instant: Date, logger: Logger)
        async throws -> Bool
    {
        let row = try await connection.query(
            """
            SELECT (SELECT answeredAt FROM checkinAnswer WHERE habitId = \(habitID) AND day = \(day.description)),
                (SELECT changedAt FROM entryChange WHERE habitId = \(habitID) AND day = \(day.description))
            """, logger: logger
        ).collect().first
        let (answeredAt, changedAt) = try row?.decode((Date?, Date?).self) ?? (nil, nil)
        return LastWriter.loses(
            instant, entry: try await entry(connection, habitID: habitID, day: day, logger: logger),
            answeredAt: answeredAt, lastChange: changedAt)
    }

    /// Notes `instant` as the latest action on the day (the later of it and the one noted before).
    static func noteChange(
        _ connection: PostgresConnection, habitID: Int64, day: LocalDay, at instant: Date, logger: Logger
    )
        async throws
    {
        try await connection.query(
            """
            INSERT INTO entryChange (habitId, day, changedAt) VALUES (\(habitID), \(day.description), \(instant))
            ON CONFLICT (habitId, day) DO UPDATE SET changedAt = greatest(entryChange.changedAt, excluded.changedAt)
            """, logger: logger)
    }
}
