import Foundation
import MorningProofCore

/// The days of the account's habits: entries, and the progress judged from them.
public protocol EntryStore: AccountScopedStore {
    /// Every entry of one habit, oldest first.
    func entries(habitID: Int64) async throws -> [Entry]
    /// The entry of a habit on a day, if any.
    func entry(habitID: Int64, day: LocalDay) async throws -> Entry?
    /// The entries of all the account's habits on a day, by habit id.
    func entries(on day: LocalDay) async throws -> [Int64: Entry]
    /// Records an entry, at most one per habit and day, as `RecordOutcome.of` decides.
    @discardableResult func record(_ entry: Entry) async throws -> RecordOutcome
    /// Records entries of the account's habits in one transaction (an import completing a year of
    /// days at once), each as `record` would; the outcomes in the same order.
    func record(_ entries: [Entry]) async throws -> [RecordOutcome]
    /// Removes a habit's entry and check-in answer of a day in one transaction.
    @discardableResult func clearDay(habitID: Int64, day: LocalDay) async throws -> ClearedDay
    /// A person's `done` or `skip`: records `entry` as `record` does and notes its `recordedAt` as the
    /// day's latest change. With `lastWriterWins` (an action sent with the instant it happened), one
    /// that happened before the day's latest change (`LastWriter.loses`) changes nothing: `.superseded`.
    func recordAction(_ entry: Entry, lastWriterWins: Bool) async throws -> RecordOutcome
    /// A person's undo at `instant`: clears the day as `clearDay` does and notes the instant, so that
    /// an older action arriving later loses. With `lastWriterWins`, an undo that happened before the
    /// day's latest change removes nothing (`ClearedDay.superseded`).
    func clearDay(habitID: Int64, day: LocalDay, at instant: Date, lastWriterWins: Bool) async throws -> ClearedDay
    /// Every habit's progress as of `today` (`HabitTimeline`, with the account's travel days and
    /// week start), judged at least as far back as `need` asks.
    func progress(of habits: [Habit], today: LocalDay, need: HistoryNeed) async throws -> [HabitProgress]
    /// The account's active habits with their progress as of `today` (judged as far as `.summary`
    /// needs) and their entries of that day: what status shows, read at once so that a store can
    /// answer it in one snapshot (PostgreSQL: two statements instead of eight round trips).
    func habitsToday(_ today: LocalDay) async throws -> HabitsToday
}

/// The account's active habits on one day: their progress and that day's entries.
public struct HabitsToday: Sendable {
    /// Each active habit with its streaks, in the order they were created.
    public let habits: [HabitProgress]
    /// The day's entries of those habits, by habit id.
    public let entries: [Int64: Entry]

    public init(habits: [HabitProgress], entries: [Int64: Entry]) {
        self.habits = habits
        self.entries = entries
    }
}

/// What clearing a day removed.
public struct ClearedDay: Equatable, Sendable {
    public var entry: Entry?
    public var answer: CheckinAnswer?
    /// The undo happened before the day's latest change (`LastWriter`): nothing was removed.
    public var superseded: Bool

    public init(entry: Entry?, answer: CheckinAnswer?, superseded: Bool = false) {
        self.entry = entry
        self.answer = answer
        self.superseded = superseded
    }
}

extension EntryStore where Self: HabitStore {
    /// `habitsToday` from `habits()`, `progress` and `entries(on:)`: SQLite's, whose reads are local.
    public func habitsToday(_ today: LocalDay) async throws -> HabitsToday {
        let habits = try await habits()
        let ids = Set(habits.map(\.id))
        return HabitsToday(
            habits: try await progress(of: habits, today: today, need: .summary),
            entries: try await entries(on: today).filter { ids.contains($0.key) })
    }
}

extension EntryStore {
    /// One habit's progress as of `today`, judged as far back as `need` asks.
    public func progress(of habit: Habit, today: LocalDay, need: HistoryNeed = .all) async throws -> HabitProgress {
        try await progress(of: [habit], today: today, need: need)[0]
    }

    /// Every habit's progress as of `today`, judged from its first day.
    public func progress(of habits: [Habit], today: LocalDay) async throws -> [HabitProgress] {
        try await progress(of: habits, today: today, need: .all)
    }
}
