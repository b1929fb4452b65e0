import Foundation
import MorningProofCore
import MorningProofStoreContract

/// A habit as a front end shows it: its progress as of today and, for a metric habit, today's
/// value in number and words (nil for another kind, or a day without data).
public struct HabitView: Sendable {
    public var progress: HabitProgress
    public var today: (value: Double, text: String)?

    /// Days from today on whose done was not a photo, back to pending because the habit became a
    /// photo habit in the edit that gave this view; empty otherwise.
    public var reopened: [LocalDay] = []

    /// The habit itself: its progress's.
    public var habit: Habit { progress.habit }

    /// What the person is told about `reopened`: "today's done was not a photo: take one"; nil without.
    public var notice: String? { EditedHabit.notice(reopened: reopened) }
}

/// A habit after an edit, and the days from today on whose done went back to pending because it
/// became a photo habit (a done that no photo proved).
public struct EditedHabit: Sendable {
    public var habit: Habit
    public var reopened: [LocalDay]

    /// The words for `reopened`; nil when none.
    public static func notice(reopened: [LocalDay]) -> String? {
        reopened.isEmpty ? nil : "today's done was not a photo: take one"
    }
}

/// The habit actions by id, as the API names habits: each is one call that finds the habit (not
/// found for none, or another account's), acts, and gives the habit as it stands afterwards.
extension HabitService {
    /// `habit` with its progress and today's metric value, as of the day `now` falls on.
    public func view(_ habit: Habit, now: Date) async throws -> HabitView {
        HabitView(progress: try await show(habit, now: now), today: try await metricToday(habit, now: now))
    }

    /// Every habit (the archived ones too when `includeArchived`), each as `view` gives it.
    public func list(includeArchived: Bool, now: Date) async throws -> [HabitView] {
        var views: [HabitView] = []
        for habit in try await database.habits(includeArchived: includeArchived) {
            views.append(try await view(habit, now: now))
        }
        return views
    }

    /// The habit `id` as `view` gives it.
    public func view(id: Int64, now: Date) async throws -> HabitView {
        try await view(try await habit(id: id), now: now)
    }

    /// Adds a habit as `add(named:_:since:now:)` does, and gives it as `view` does.
    public func create(named name: String, _ details: HabitDetails, since: String? = nil, now: Date) async throws
        -> HabitView
    {
        try await view(try await add(named: name, details, since: since, now: now), now: now)
    }

    /// Applies `details`, a new name and an archived state to the habit `id` in one save, and gives it as `view` does.
    public func edit(
        id: Int64, rename: String? = nil, archived: Bool? = nil, _ details: HabitDetails, now: Date
    ) async throws -> HabitView {
        let edited = try await edit(try await habit(id: id), rename: rename, archived: archived, details, now: now)
        var view = try await view(edited.habit, now: now)
        view.reopened = edited.reopened
        return view
    }

    /// Removes the habit `id` and its history; the number of entries removed.
    public func remove(id: Int64) async throws -> Int {
        try await remove(try await habit(id: id))
    }
}
