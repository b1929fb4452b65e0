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

/// Photo proofs: an entry with the evidence it rests on.
public protocol ProofStore: AccountScopedStore {
    /// Records `entry` with its photo evidence in one transaction, unless the photo repeats the
    /// account's evidence of another day (`ProofPolicy.repeated`): then nothing changes.
    func recordProof(_ entry: Entry, evidence: PhotoEvidence, maxDistance: Int) async throws -> ProofOutcome
}

/// Answers of check-in habits.
public protocol CheckinStore: AccountScopedStore {
    /// The answer of a check-in habit on a day (`CheckinAnswer.standing`).
    func checkinAnswer(habitID: Int64, day: LocalDay) async throws -> CheckinAnswer?
    /// The most recent answer of a check-in habit, on any day (`CheckinAnswer.latest`).
    func lastCheckinAnswer(habitID: Int64) async throws -> CheckinAnswer?
    /// Answers the check-in for a day as `CheckinOutcome.of` decides, with a done entry for a yes,
    /// as a person's action at `instant`, noted as the day's latest change; with `lastWriterWins`,
    /// an answer that happened before the day's latest change (`LastWriter.loses`) changes nothing:
    /// `.superseded`.
    func answerCheckin(
        habitID: Int64, day: LocalDay, yes: Bool, at instant: Date, zone: String, lastWriterWins: Bool
    ) async throws -> CheckinOutcome
}

extension CheckinStore {
    /// Answers the check-in for a day as `CheckinOutcome.of` decides: the answer and, for a yes, a
    /// done entry (source `checkin`), in one transaction. A yes stands for the day; a no can later
    /// become a yes. Written once for both engines: no last-writer rule.
    @discardableResult
    public func answerCheckin(habitID: Int64, day: LocalDay, yes: Bool, at instant: Date, zone: String) async throws
        -> CheckinOutcome
    {
        try await answerCheckin(habitID: habitID, day: day, yes: yes, at: instant, zone: zone, lastWriterWins: false)
    }
}

/// Unlocks of the gate.
public protocol GateStore: AccountScopedStore {
    /// Unlocks on days `from` through `to`, oldest first.
    func gateUnlocks(from: LocalDay, through to: LocalDay) async throws -> [GateUnlock]
    /// Records an unlock for `day` when `GateUnlockOutcome.of` allows it under `limit`; check and
    /// insert are one transaction.
    func unlockGate(day: LocalDay, at instant: Date, reason: String, limit: Int) async throws -> GateUnlockOutcome
}

extension GateStore {
    /// The unlock of a day, if any.
    public func gateUnlock(on day: LocalDay) async throws -> GateUnlock? {
        try await gateUnlocks(from: day, through: day).first
    }
}

/// The account's settings and clock.
public protocol SettingsStore: AccountScopedStore {
    /// The clock in force for the account; not found while it has no zone. `systemZone` is the
    /// zone of SQLite's owner, whose clock is a setting, until one is set.
    func clock(systemZone: @autoclosure () -> String) async throws -> DayClock
    /// The same clock for the account signed in as `profile` (its row, as checking the request's
    /// token read it): a store that keeps every clock on the account row answers from `profile`
    /// without reading it again.
    func clock(signedIn profile: AccountProfile, systemZone: @autoclosure () -> String) async throws -> DayClock
    /// The first day of the account's calendar week, 1 (Monday) to 7 (Sunday).
    func weekStart() async throws -> Int
    /// Every stored setting of the account, by key.
    func settings() async throws -> [String: String]
    /// One setting's stored value (of the account), or nil.
    func setting(_ key: String) async throws -> String?
    /// Stores a setting of the account (nil removes it).
    func setSetting(_ key: String, to value: String?) async throws
}

extension SettingsStore {
    /// The clock in force for the account, with the system's zone for an owner who set none.
    public func clock() async throws -> DayClock {
        try await clock(systemZone: ZoneNames.systemDefault())
    }

    /// The clock read again: SQLite's, whose owner keeps it in a setting.
    public func clock(signedIn profile: AccountProfile, systemZone: @autoclosure () -> String) async throws
        -> DayClock
    {
        try await clock(systemZone: systemZone())
    }

    /// The clock for the account signed in as `profile`, with the system's zone for an owner who set none.
    public func clock(signedIn profile: AccountProfile) async throws -> DayClock {
        try await clock(signedIn: profile, systemZone: ZoneNames.systemDefault())
    }

    /// How many unlocks are allowed in any 7 days (`gate.unlocks-per-week`, default 1).
    public func gateUnlocksPerWeek() async throws -> Int {
        try await setting(SettingKey.gateUnlocksPerWeek).flatMap { Int($0) } ?? GateUnlock.defaultPerWeek
    }
}

/// The owner's clock, which is a setting of the CLI's (`config set timezone`, `day-start`).
/// Served by SQLite.
public protocol OwnerClockStore: SettingsStore {
    /// Changes the owner's zone or day start, recording the change with its instant so that the
    /// days it touches count as travel days.
    func changeClock(to new: DayClock, at instant: Date, systemZone: String) async throws
}

extension OwnerClockStore {
    /// Changes the owner's clock; an owner who set no zone had the system's.
    public func changeClock(to new: DayClock, at instant: Date) async throws {
        try await changeClock(to: new, at: instant, systemZone: ZoneNames.systemDefault())
    }
}
