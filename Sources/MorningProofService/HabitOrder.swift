import Foundation
import MorningProofCore
import MorningProofStoreContract

/// The order of the account's habits, as a person sets it: status, lists and the web app follow it,
/// and a new habit comes last. One rule for every front end: the order names every active habit once.
extension HabitService {
    /// Puts the active habits in the order of `ids` and gives them in that order. Refused (naming
    /// what is wrong) unless `ids` holds every active habit exactly once and nothing else; an id of
    /// another account, or of none, is not found, as everywhere else.
    @discardableResult
    public func order(_ ids: [Int64]) async throws -> [Habit] {
        let all = try await database.habits(includeArchived: true)
        let byID = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if let unknown = ids.first(where: { byID[$0] == nil }) { throw StoreError.noHabit(unknown) }
        func named(_ id: Int64) -> String { "\"\(byID[id]?.name ?? String(id))\" (id \(id))" }
        var seen: Set<Int64> = []
        if let twice = ids.first(where: { !seen.insert($0).inserted }) {
            throw Self.badOrder("\(named(twice)) is listed twice: list each active habit once")
        }
        if let archived = ids.first(where: { byID[$0]?.archived == true }) {
            throw Self.badOrder("\(named(archived)) is archived: list only the active habits")
        }
        let missing = all.filter { !$0.archived && !seen.contains($0.id) }
        if !missing.isEmpty {
            throw Self.badOrder(
                "the order leaves out \(missing.map { named($0.id) }.joined(separator: ", ")): list every active habit once"
            )
        }
        try await database.setHabitOrder(ids)
        return try await database.habits()
    }

    /// Moves the active habit `name` names to `position` (1 is first) among the active habits, and
    /// gives them in their new order. A position past the end is refused, naming how many there are.
    @discardableResult
    public func move(named name: String, to position: Int) async throws -> [Habit] {
        let habit = try await database.findHabit(named: name, includeArchived: false)
        var ids = try await database.habits().map(\.id)
        guard position >= 1, position <= ids.count else {
            throw MorningProofError.usage(
                "position \(position) is out of range: there \(ids.count == 1 ? "is 1 active habit" : "are \(ids.count) active habits")"
            )
        }
        ids.removeAll { $0 == habit.id }
        ids.insert(habit.id, at: position - 1)
        return try await order(ids)
    }

    static func badOrder(_ message: String) -> MorningProofError {
        MorningProofError(.refused, code: "bad_order", message)
    }
}
