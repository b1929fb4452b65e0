import Foundation
import MorningProofCore
import MorningProofStoreContract

/// What `done`, `skip` or `undo` did to one habit's day, with the habit's progress afterwards.
public struct EntryChange: Sendable {
    public enum Kind: Sendable, Equatable {
        /// `done` or `skip`: what recording did (`.unchanged`: the day already had that status).
        case recorded(RecordOutcome)
        /// `undo`: what was cleared (nothing when both are nil).
        case cleared(entry: Entry?, answer: CheckinAnswer?)
        /// An action sent with the instant it happened lost to a later change of the day, made on
        /// another device (`LastWriter`): nothing changed.
        case superseded
    }

    public var habit: Habit
    public var day: LocalDay
    public var kind: Kind
    /// The habit judged as of today, after the change.
    public var progress: HabitProgress
}

/// Entries as a person makes them: done, skipped, undone, for today or an earlier day.
public struct EntryService: Sendable {
    public let database: any AccountData
    public let clock: DayClock

    public init(database: any AccountData, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// The day `day` names for `habit` at `now` (`LocalDay.resolve`; nil is today), refused when it is in
    /// the future or before the habit existed.
    public func day(_ day: String?, of habit: Habit, now: Date) throws -> LocalDay {
        let today = clock.day(at: now)
        let resolved = try day.map { try LocalDay.resolve($0, today: today) } ?? today
        try clock.checkHappened(resolved)
        if resolved > today {
            throw MorningProofError(.refused, code: "future_day", "\(resolved) is in the future (today is \(today))")
        }
        if resolved < habit.createdDay {
            throw MorningProofError(
                .refused, code: "before_habit",
                "\"\(habit.name)\" did not exist yet on \(resolved) (it was added on \(habit.createdDay))")
        }
        return resolved
    }

    /// The instant an action counts as happening: `at` (the instant a phone recorded it, offline
    /// perhaps) held at `now` within `LastWriter.allowedSkew`, refused further ahead; `now` without it.
    public static func instant(of at: Date?, now: Date) throws -> Date {
        if let at, LastWriter.isFuture(at, now: now) {
            throw MorningProofError(
                .refused, code: "future_instant",
                "the action's instant \(ISOInstant.format(at, in: TimeZone(secondsFromGMT: 0)!)) is in the future "
                    + "(the server's clock reads \(ISOInstant.format(now, in: TimeZone(secondsFromGMT: 0)!)))")
        }
        return LastWriter.instant(of: at, now: now)
    }

    /// Records a manual entry (`done`: `.done`; `skip`: `.skipped`). Done twice is harmless.
    /// With `at` (the instant the person did it, sent later by a phone that was offline), the day
    /// (`today`, `yesterday`) is named as of `at` and last writer wins: an action older than the
    /// day's latest change is `.superseded`.
    public func record(
        _ status: EntryStatus, habit: Habit, day: String?, note: String? = nil, value: Double? = nil, now: Date,
        at: Date? = nil
    ) async throws -> EntryChange {
        try PhotoProofRule.check(status, on: habit)
        if let note { try UserText.validate(note, field: .note, maxLength: UserText.noteMaxLength) }
        let note = note?.isEmpty == true ? nil : note
        let instant = try Self.instant(of: at, now: now)
        let day = try self.day(day, of: habit, now: instant)
        let entry = Entry(
            habitID: habit.id, day: day, status: status, value: value, source: .manual, note: note,
            recordedAt: instant, zone: clock.zoneIdentifier)
        // Every skip: whether the habit is required (as stored, not as read above), the excuses left and
        // the entry are judged and written in one transaction, so that two skips at once, or a skip and
        // the edit that makes the habit required, cannot spend more than the budget (issue 39).
        let outcome =
            if status == .skipped {
                try await database.recordExcusedSkip(entry, lastWriterWins: at != nil)
            } else {
                try await database.recordAction(entry, lastWriterWins: at != nil)
            }
        return try await change(habit, day, outcome == .superseded ? .superseded : .recorded(outcome), now: now)
    }

    /// Clears a habit's day: its entry and, for a check-in, its answer (a no has no entry). With
    /// `at`, as `record`: the day named as of `at`, and an undo older than the day's latest change
    /// is `.superseded`. The undo's instant is remembered, so that an older action sent later loses.
    public func undo(habit: Habit, day: String?, now: Date, at: Date? = nil) async throws -> EntryChange {
        let instant = try Self.instant(of: at, now: now)
        let day = try self.day(day, of: habit, now: instant)
        let cleared = try await database.clearDay(habitID: habit.id, day: day, at: instant, lastWriterWins: at != nil)
        return try await change(
            habit, day, cleared.superseded ? .superseded : .cleared(entry: cleared.entry, answer: cleared.answer),
            now: now)
    }

    private func change(_ habit: Habit, _ day: LocalDay, _ kind: EntryChange.Kind, now: Date) async throws
        -> EntryChange
    {
        EntryChange(
            habit: habit, day: day, kind: kind,
            progress: try await database.progress(of: habit, today: clock.day(at: now), need: .days(from: day)))
    }

    // MARK: - By habit id, as the API names habits

    /// The entries of habit `id` from `from` to `to` (`LocalDay.resolve`; either end open when nil).
    /// A range that ends before it starts holds no entries.
    public func entries(habitID id: Int64, from: String?, to: String?, now: Date) async throws -> [Entry] {
        let habit = try await HabitService(database: database, clock: clock).habit(id: id)
        let today = clock.day(at: now)
        let first = try from.map { try LocalDay.resolve($0, today: today) }
        let last = try to.map { try LocalDay.resolve($0, today: today) }
        return try await database.entries(habitID: habit.id)
            .filter { entry in first.map { entry.day >= $0 } ?? true && last.map { entry.day <= $0 } ?? true }
    }

    /// `record` for the habit `id`, with the day's entry as it stands afterwards.
    public func record(
        _ status: EntryStatus, habitID id: Int64, day: String?, note: String? = nil, value: Double? = nil, now: Date,
        at: Date? = nil
    ) async throws -> (change: EntryChange, entry: Entry?) {
        let habit = try await HabitService(database: database, clock: clock).habit(id: id)
        let change = try await record(status, habit: habit, day: day, note: note, value: value, now: now, at: at)
        return (change, try await database.entry(habitID: habit.id, day: change.day))
    }

    /// `undo` for the habit `id`, with the day's entry as it stands afterwards (nil once cleared; the
    /// entry that stays when the undo was superseded).
    public func undo(habitID id: Int64, day: String?, now: Date, at: Date? = nil) async throws
        -> (change: EntryChange, entry: Entry?)
    {
        let habit = try await HabitService(database: database, clock: clock).habit(id: id)
        let change = try await undo(habit: habit, day: day, now: now, at: at)
        return (change, try await database.entry(habitID: habit.id, day: change.day))
    }
}
