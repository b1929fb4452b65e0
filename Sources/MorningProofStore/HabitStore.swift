import Foundation
import GRDB
import MorningProofCore

extension AppDatabase {
    /// Active habits (and archived ones when asked), in the order they were created.
    public func habits(includeArchived: Bool = false) throws -> [Habit] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM habit \(includeArchived ? "" : "WHERE archived = 0") ORDER BY id"
            ).map(Self.habit(from:))
        }
    }

    public func habit(id: Int64) throws -> Habit? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM habit WHERE id = ?", arguments: [id]).map(Self.habit(from:))
        }
    }

    /// The habit a person means by `text`: its exact name, or a unique prefix, in any case.
    public func findHabit(named text: String, includeArchived: Bool = true) throws -> Habit {
        let all = try habits(includeArchived: includeArchived)
        if let exact = all.first(where: { $0.name.caseInsensitiveCompare(text) == .orderedSame }) { return exact }
        let lower = text.lowercased()
        let matches = all.filter { $0.name.lowercased().hasPrefix(lower) }
        switch matches.count {
        case 1: return matches[0]
        case 0:
            let names = all.filter { !$0.archived }.map { "\"\($0.name)\"" }
            throw MorningProofError.usage(
                "no habit named \"\(text)\""
                    + (names.isEmpty
                        ? "; add one with: morningproof habit add NAME" : " (habits: \(names.joined(separator: ", ")))")
            )
        default:
            throw MorningProofError.usage(
                "\"\(text)\" is ambiguous: it could be \(matches.map { "\"\($0.name)\"" }.joined(separator: " or ")); type more of the name"
            )
        }
    }

    /// Stores a new habit and returns it with its id. A name already taken (in any case) is refused.
    public func addHabit(_ habit: Habit) throws -> Habit {
        try write { db in
            try Self.checkNameFree(db, habit.name, except: nil)
            var stored = habit
            try db.execute(
                sql: """
                    INSERT INTO habit (name, kind, schedule, remindAt, required, note, archived,
                      goalMetric, goalComparison, goalTarget, goalActivity, createdDay, createdAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: Self.arguments(habit) + [habit.createdDay.description, habit.createdAt])
            stored.id = db.lastInsertedRowID
            return stored
        }
    }

    /// Saves every field of an existing habit but its creation day.
    public func updateHabit(_ habit: Habit) throws {
        try write { db in
            try Self.checkNameFree(db, habit.name, except: habit.id)
            try db.execute(
                sql: """
                    UPDATE habit SET name = ?, kind = ?, schedule = ?, remindAt = ?, required = ?, note = ?,
                      archived = ?, goalMetric = ?, goalComparison = ?, goalTarget = ?, goalActivity = ?
                    WHERE id = ?
                    """,
                arguments: Self.arguments(habit) + [habit.id])
        }
    }

    /// Deletes a habit and its entries; returns how many entries went with it.
    @discardableResult
    public func removeHabit(id: Int64) throws -> Int {
        try write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry WHERE habitId = ?", arguments: [id]) ?? 0
            try db.execute(sql: "DELETE FROM habit WHERE id = ?", arguments: [id])
            return count
        }
    }

    private static func checkNameFree(_ db: Database, _ name: String, except id: Int64?) throws {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw MorningProofError.usage("a habit needs a name") }
        if let other = try String.fetchOne(
            db, sql: "SELECT name FROM habit WHERE name = ? COLLATE NOCASE AND id IS NOT ?", arguments: [name, id])
        {
            throw MorningProofError.usage("a habit named \"\(other)\" already exists")
        }
    }

    private static func arguments(_ habit: Habit) -> StatementArguments {
        [
            habit.name, habit.kind.rawValue, habit.schedule.storageValue, habit.remindAt, habit.required, habit.note,
            habit.archived, habit.goal?.metric, habit.goal?.comparison.rawValue, habit.goal?.target,
            habit.goal?.activity,
        ]
    }

    static func habit(from row: Row) -> Habit {
        var goal: MetricGoal?
        if let metric: String = row["goalMetric"],
            let comparison = MetricGoal.Comparison(rawValue: row["goalComparison"] ?? ""),
            let target: Double = row["goalTarget"]
        {
            goal = MetricGoal(metric: metric, comparison: comparison, target: target, activity: row["goalActivity"])
        }
        return Habit(
            id: row["id"], name: row["name"], kind: HabitKind(rawValue: row["kind"]) ?? .manual,
            schedule: Schedule(storageValue: row["schedule"]) ?? .daily, remindAt: row["remindAt"],
            required: row["required"], note: row["note"], archived: row["archived"], goal: goal,
            createdDay: LocalDay(row["createdDay"] as String) ?? LocalDay(dayNumber: 0), createdAt: row["createdAt"])
    }
}
