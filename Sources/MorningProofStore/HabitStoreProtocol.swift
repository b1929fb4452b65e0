import Foundation
import MorningProofCore

/// One account's habits and what hangs on them, as the habit, entry, report, chart, proof,
/// check-in, quote and gate use cases read and write them: habits, their days, photo proofs,
/// check-in answers, gate unlocks, settings and the account's clock. Served by SQLite
/// (`AppDatabase`) and by PostgreSQL (`PostgresStore`, which conforms in its own module); the
/// stores only read and write, the rules stay in Core, so both engines answer alike.
///
/// A value sees one account (`scoped(to:)`): another account's habits are not found. The calls
/// are synchronous and may wait for the database: call them off any event loop (the server runs
/// them on NIO's thread pool).
public protocol HabitStore: Sendable {
    /// The same store, seen as the account `id`.
    func scoped(to id: Int64) -> Self

    /// The clock in force for the account; not found while it has no zone. `systemZone` is the
    /// zone of SQLite's owner, whose clock is a setting, until one is set.
    func clock(systemZone: @autoclosure () -> String) throws -> DayClock
    /// The first day of the account's calendar week, 1 (Monday) to 7 (Sunday).
    func weekStart() throws -> Int
    /// Every stored setting of the account, by key.
    func settings() throws -> [String: String]
    /// One setting's stored value (of the account), or nil.
    func setting(_ key: String) throws -> String?
    /// Stores a setting of the account (nil removes it).
    func setSetting(_ key: String, to value: String?) throws

    /// Active habits (and archived ones when asked), in the order they were created.
    func habits(includeArchived: Bool) throws -> [Habit]
    /// The habit `id` of the account; nil for none, or another account's.
    func habit(id: Int64) throws -> Habit?
    /// Stores a new habit and returns it with its id. A name already taken (in any case) is a conflict.
    func addHabit(_ habit: Habit) throws -> Habit
    /// Saves every field of an existing habit but its creation day.
    func updateHabit(_ habit: Habit) throws
    /// Deletes a habit and its entries; returns how many entries went with it.
    @discardableResult func removeHabit(id: Int64) throws -> Int

    /// Every entry of one habit, oldest first.
    func entries(habitID: Int64) throws -> [Entry]
    /// The entry of a habit on a day, if any.
    func entry(habitID: Int64, day: LocalDay) throws -> Entry?
    /// Records an entry, at most one per habit and day, as `RecordOutcome.of` decides.
    @discardableResult func record(_ entry: Entry) throws -> RecordOutcome
    /// Removes a habit's entry and check-in answer of a day in one transaction.
    @discardableResult func clearDay(habitID: Int64, day: LocalDay) throws -> ClearedDay
    /// Every habit's progress as of `today` (`HabitTimeline`, with the account's travel days and
    /// week start), judged at least as far back as `need` asks.
    func progress(of habits: [Habit], today: LocalDay, need: HistoryNeed) throws -> [HabitProgress]
    /// A day's value of a metric by the daily-total rules; nil when no data counts for that day.
    func metricValue(metric: String, day: LocalDay, activity: String?) throws -> Double?

    /// Records `entry` with its photo evidence in one transaction, unless the photo repeats the
    /// account's evidence of another day (`ProofPolicy.repeated`): then nothing changes.
    func recordProof(_ entry: Entry, evidence: PhotoEvidence, maxDistance: Int) throws -> ProofOutcome

    /// The answer of a check-in habit on a day (`CheckinAnswer.standing`).
    func checkinAnswer(habitID: Int64, day: LocalDay) throws -> CheckinAnswer?
    /// The most recent answer of a check-in habit, on any day (`CheckinAnswer.latest`).
    func lastCheckinAnswer(habitID: Int64) throws -> CheckinAnswer?
    /// Answers the check-in for a day as `CheckinOutcome.of` decides, with a done entry for a yes.
    @discardableResult func answerCheckin(habitID: Int64, day: LocalDay, yes: Bool, at instant: Date, zone: String)
        throws -> CheckinOutcome

    /// Unlocks on days `from` through `to`, oldest first.
    func gateUnlocks(from: LocalDay, through to: LocalDay) throws -> [GateUnlock]
    /// Records an unlock for `day` when `GateUnlockOutcome.of` allows it under `limit`; check and
    /// insert are one transaction.
    func unlockGate(day: LocalDay, at instant: Date, reason: String, limit: Int) throws -> GateUnlockOutcome
}

extension HabitStore {
    /// The clock in force for the account, with the system's zone for an owner who set none.
    public func clock() throws -> DayClock {
        try clock(systemZone: ZoneNames.systemDefault())
    }

    /// Active habits, in the order they were created.
    public func habits() throws -> [Habit] {
        try habits(includeArchived: false)
    }

    /// The habit a person means by `text` (`HabitNameMatch`): not found or ambiguous says which
    /// habits there are.
    public func findHabit(named text: String, includeArchived: Bool = true) throws -> Habit {
        let all = try habits(includeArchived: includeArchived)
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

    /// One habit's progress as of `today`, judged as far back as `need` asks.
    public func progress(of habit: Habit, today: LocalDay, need: HistoryNeed = .all) throws -> HabitProgress {
        try progress(of: [habit], today: today, need: need)[0]
    }

    /// The unlock of a day, if any.
    public func gateUnlock(on day: LocalDay) throws -> GateUnlock? {
        try gateUnlocks(from: day, through: day).first
    }

    /// How many unlocks are allowed in any 7 days (`gate.unlocks-per-week`, default 1).
    public func gateUnlocksPerWeek() throws -> Int {
        try setting(SettingKey.gateUnlocksPerWeek).flatMap { Int($0) } ?? GateUnlock.defaultPerWeek
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

/// Habits, entries, proofs, check-ins and gate unlocks, with `HabitStore`'s semantics.
extension AppDatabase: HabitStore {}
