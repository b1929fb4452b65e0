import Foundation
import MorningProofCore

/// The account's habits.
public protocol HabitStore: AccountScopedStore {
    /// Active habits (and archived ones when asked), in the order the person set (`setHabitOrder`),
    /// habits never placed after the others in the order they were created.
    func habits(includeArchived: Bool) async throws -> [Habit]
    /// The habit `id` of the account; nil for none, or another account's.
    func habit(id: Int64) async throws -> Habit?
    /// Stores a new habit and returns it with its id. A name already taken (in any case) is a conflict.
    func addHabit(_ habit: Habit) async throws -> Habit
    /// Saves every field of an existing habit but its creation day.
    func updateHabit(_ habit: Habit) async throws
    /// Deletes a habit and its entries; returns how many entries went with it.
    @discardableResult func removeHabit(id: Int64) async throws -> Int
    /// Places the habits `ids` (the account's, each once: `HabitService.order` checks) first, in
    /// that order, in one transaction; an id of another account (or none) is not found and changes
    /// nothing.
    func setHabitOrder(_ ids: [Int64]) async throws
}

extension HabitStore {
    /// Active habits, in the order the person set.
    public func habits() async throws -> [Habit] {
        try await habits(includeArchived: false)
    }

    /// The habit a person means by `text` (`HabitNameMatch`): not found or ambiguous says which
    /// habits there are.
    public func findHabit(named text: String, includeArchived: Bool = true) async throws -> Habit {
        let all = try await habits(includeArchived: includeArchived)
        switch HabitNameMatch.of(text, among: all) {
        case .found(let habit): return habit
        case .none:
            let names = all.filter { !$0.archived }.map { "\"\($0.name)\"" }
            if names.isEmpty { throw StoreError.noHabits(named: text) }
            throw StoreError(
                .notFound, value: text, "no habit named \"\(text)\" (habits: \(names.joined(separator: ", ")))")
        case .ambiguous(let matches):
            throw StoreError(
                .ambiguous, value: text,
                "\"\(text)\" is ambiguous: it could be \(matches.map { "\"\($0.name)\"" }.joined(separator: " or ")); type more of the name"
            )
        }
    }
}

/// The errors both engines give for a habit's name.
extension StoreError {
    /// A name that is only spaces.
    public static func blankHabitName(_ name: String) -> StoreError {
        StoreError(.invalid, value: name, "a habit needs a name")
    }

    /// `name` is taken (in any case) by the account's habit `existing`.
    public static func habitNameTaken(_ name: String, by existing: String) -> StoreError {
        StoreError(.conflict, value: name, "a habit named \"\(existing)\" already exists")
    }

    /// An account that has not set its zone yet has no clock, so no "today".
    public static let noClockYet = StoreError(
        .notFound, value: "timezone", "complete onboarding first: set your time zone in the profile")

    /// No habit is named `text`, and there is no habit at all: a front end may say how to add one.
    public static func noHabits(named text: String) -> StoreError {
        StoreError(.notFound, value: text, "no habit named \"\(text)\"; there are no habits yet")
    }

    /// True for `noHabits(named:)`.
    public var isNoHabitsYet: Bool { self == .noHabits(named: value) }

    /// A habit id of another account, or none.
    public static func noHabit(_ id: Int64) -> StoreError {
        StoreError(.notFound, value: String(id), "no habit with id \(id)")
    }
}
