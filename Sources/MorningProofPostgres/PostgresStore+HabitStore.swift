import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

extension PostgresSchema {
    /// The order a person set (SQLite's "v13-habit-position"); NULL for a habit never placed, listed last.
    static let v9: [String] = ["ALTER TABLE habit ADD COLUMN position integer"]
}

/// The account's habits, as `AppDatabase`'s: names unique per account in any ASCII case (the
/// `habit_on_accountId_name` index), another account's habit not found.
extension PostgresStore: HabitStore {
    /// Active habits (and archived ones when asked), in the order the person set, then the order they were created.
    public func habits(includeArchived: Bool) async throws -> [Habit] {
        try await transaction(.statement) { connection in
            try await connection.query(
                """
                SELECT \(unescaped: Self.habitColumns) FROM habit
                WHERE accountId = \(accountID) \(unescaped: includeArchived ? "" : "AND NOT archived")
                ORDER BY \(unescaped: Self.habitOrder)
                """, logger: logger
            ).collect().map(Self.habit(from:))
        }
    }

    /// The habit `id` of the account; nil for none, or another account's.
    public func habit(id: Int64) async throws -> Habit? {
        try await transaction(.statement) { connection in
            try await Self.ownHabit(connection, id: id, accountID: accountID, logger: logger)
        }
    }

    /// Stores a new habit and returns it with its id. A name already taken (in any case) is a conflict.
    public func addHabit(_ habit: Habit) async throws -> Habit {
        try await transaction(.writing) { connection in
            try await Self.checkNameFree(connection, habit.name, except: nil, accountID: accountID, logger: logger)
            var stored = habit
            stored.id = try await Self.insertHabit(habit, accountID: accountID, on: connection, logger: logger)
            return stored
        }
    }

    /// Inserts `habit` as the account's and returns its id (a name taken is a conflict): adding a
    /// habit and importing one.
    static func insertHabit(
        _ habit: Habit, accountID: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws -> Int64 {
        let goal = habit.goal
        let rows = try await namingHabit(habit.name) {
            try await connection.query(
                """
                INSERT INTO habit (accountId, name, kind, schedule, remindAt, required, note, archived,
                    goalMetric, goalComparison, goalTarget, goalActivity, createdDay, createdAt)
                VALUES (\(accountID), \(habit.name), \(habit.kind.rawValue), \(habit.schedule.storageValue),
                    \(habit.remindAt), \(habit.required), \(habit.note), \(habit.archived), \(goal?.metric),
                    \(goal?.comparison.rawValue), \(goal?.target), \(goal?.activity),
                    \(habit.createdDay.description), \(habit.createdAt))
                RETURNING id
                """, logger: logger
            ).collect()
        }
        return try rows[0].decode(Int64.self)
    }

    /// Saves every field of an existing habit but its creation day.
    public func updateHabit(_ habit: Habit) async throws {
        try await transaction(.writing) { connection in
            try await Self.requireOwnHabit(connection, habit.id, accountID: accountID, logger: logger)
            try await Self.saveHabit(connection, habit, accountID: accountID, logger: logger)
        }
    }

    /// Saves every field of the account's existing `habit` but its creation day; a name another
    /// habit has (in any case) is a conflict.
    static func saveHabit(_ connection: PostgresConnection, _ habit: Habit, accountID: Int64, logger: Logger)
        async throws
    {
        try await checkNameFree(connection, habit.name, except: habit.id, accountID: accountID, logger: logger)
        let goal = habit.goal
        try await namingHabit(habit.name) {
            try await connection.query(
                """
                UPDATE habit SET name = \(habit.name), kind = \(habit.kind.rawValue),
                    schedule = \(habit.schedule.storageValue), remindAt = \(habit.remindAt),
                    required = \(habit.required), note = \(habit.note), archived = \(habit.archived),
                    goalMetric = \(goal?.metric), goalComparison = \(goal?.comparison.rawValue),
                    goalTarget = \(goal?.target), goalActivity = \(goal?.activity)
                WHERE id = \(habit.id)
                """, logger: logger)
        }
    }

    /// Deletes a habit and its entries (and what hangs on them); returns how many entries went with it.
    @discardableResult
    public func removeHabit(id: Int64) async throws -> Int {
        try await transaction(.writing) { connection in
            try await Self.requireOwnHabit(connection, id, accountID: accountID, logger: logger)
            let count =
                try await connection.query(
                    "SELECT count(*) FROM entry WHERE habitId = \(id)", logger: logger
                ).collect().first?.decode(Int64.self) ?? 0
            try await connection.query("DELETE FROM habit WHERE id = \(id)", logger: logger)
            return Int(count)
        }
    }

    /// Places the habits `ids` first, in that order; another account's id (or none) changes nothing.
    public func setHabitOrder(_ ids: [Int64]) async throws {
        try await transaction(.writing) { connection in
            // The account's habits locked in one order (by id) before any is placed: two orders at once
            // then go one after the other, where placing rows in each list's order deadlocked them.
            try await connection.query(
                "SELECT id FROM habit WHERE accountId = \(accountID) ORDER BY id FOR NO KEY UPDATE", logger: logger)
            let placed = try await connection.query(
                """
                UPDATE habit SET position = o.position FROM unnest(\(ids)::bigint[]) WITH ORDINALITY AS o (id, position)
                WHERE habit.id = o.id AND habit.accountId = \(accountID) RETURNING habit.id
                """, logger: logger
            ).collect().map { try $0.decode(Int64.self) }
            let placedIDs = Set(placed)
            if let missing = ids.first(where: { !placedIDs.contains($0) }) { throw StoreError.noHabit(missing) }
        }
    }

    /// The order of `habits`: the one the person set, habits never placed last in the order they were created.
    static let habitOrder = "habit.position NULLS LAST, habit.id"

    /// The columns `habit(from:)` reads, in its order.
    static let habitColumns = """
        id, name, kind, schedule, remindAt, required, note, archived, goalMetric, goalComparison, goalTarget,
        goalActivity, createdDay, createdAt
        """

    static func habit(from row: PostgresRow) throws -> Habit {
        let (
            id, name, kind, schedule, remindAt, required, note, archived, goalMetric, goalComparison, goalTarget,
            goalActivity, createdDay, createdAt
        ) = try row.decode(
            (Int64, String, String, String, Int?, Bool, String?, Bool, String?, String?, Double?, String?, String, Date)
                .self)
        return Habit.stored(
            id: id, name: name, kind: kind, schedule: schedule, remindAt: remindAt, required: required, note: note,
            archived: archived, goalMetric: goalMetric, goalComparison: goalComparison, goalTarget: goalTarget,
            goalActivity: goalActivity, createdDay: createdDay, createdAt: createdAt)
    }

    /// The habit `id` when it belongs to the account; nil for another account's. `locking` holds its
    /// row until the transaction ends, so that writes to one habit's days go one at a time, each
    /// seeing what the one before committed (as SQLite's single writer does).
    static func ownHabit(
        _ connection: PostgresConnection, id: Int64, accountID: Int64, locking: Bool = false, logger: Logger
    ) async throws -> Habit? {
        try await connection.query(
            """
            SELECT \(unescaped: habitColumns) FROM habit WHERE id = \(id) AND accountId = \(accountID)
            \(unescaped: locking ? "FOR NO KEY UPDATE" : "")
            """, logger: logger
        ).collect().first.map(habit(from:))
    }

    /// Refuses a habit id of another account (or none), and locks the habit's row for the writing transaction.
    static func requireOwnHabit(_ connection: PostgresConnection, _ id: Int64, accountID: Int64, logger: Logger)
        async throws
    {
        guard try await ownHabit(connection, id: id, accountID: accountID, locking: true, logger: logger) != nil else {
            throw StoreError.noHabit(id)
        }
    }

    /// Refuses a name another habit of the account has, in any ASCII case (as the unique index folds it).
    private static func checkNameFree(
        _ connection: PostgresConnection, _ name: String, except id: Int64?, accountID: Int64, logger: Logger
    ) async throws {
        guard !HabitNameMatch.isBlank(name) else { throw StoreError.blankHabitName(name) }
        if let other = try await connection.query(
            """
            SELECT name FROM habit WHERE accountId = \(accountID)
            AND lower(name COLLATE "C") = lower(\(name) COLLATE "C") AND id IS DISTINCT FROM \(id)
            """, logger: logger
        ).collect().first?.decode(String.self) {
            throw StoreError.habitNameTaken(name, by: other)
        }
    }

    /// `body`, one statement that writes a habit's name, with a unique violation (a simultaneous
    /// request took the name first, after `checkNameFree`) said as the name being taken.
    private static func namingHabit<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw StoreError.habitNameTaken(name, by: name)
        }
    }
}
