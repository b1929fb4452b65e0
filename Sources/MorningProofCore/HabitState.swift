/// What a habit's checkpoint is judged with besides its entries: the account's week start and the
/// days its streaks run through (travel days, and days its zones skipped, such as Samoa's 2011-12-30).
public struct HabitStateContext: Sendable, Equatable {
    public let weekStart: Int
    public let travelDays: Set<LocalDay>
    /// Per required habit, the empty travel days no excuse was left for (`ExcuseBudget`): missed
    /// days, not bridged. They enter a checkpoint's basis, so a change of budget rebuilds it.
    public var missedTravel: [Int64: Set<LocalDay>]

    public init(weekStart: Int, travelDays: Set<LocalDay>, missedTravel: [Int64: Set<LocalDay>] = [:]) {
        self.weekStart = weekStart
        self.travelDays = travelDays
        self.missedTravel = missedTravel
    }

    /// The days `habitID`'s streaks run through: the travel days but those it missed.
    public func travelDays(of habitID: Int64) -> Set<LocalDay> {
        guard let missed = missedTravel[habitID] else { return travelDays }
        return travelDays.subtracting(missed)
    }
}

/// A habit's derived state as both stores keep it (a `habitState` row): a checkpoint with what it
/// was computed from, and the earliest entry day changed since (`noted`, from `habitStateDirty`).
/// The one definition of when a stored state can be trusted (`trusted(for:context:)`), used by
/// SQLite and PostgreSQL alike.
public struct StoredHabitState: Sendable, Equatable {
    /// The day noted for a change that touches no entry (a habit added or edited, the account's
    /// zone or week start changed): later than any day an entry can have.
    public static let noEntryDay = "9999-12-31"

    public var version: Int
    public var basis: String
    public var through: String
    public var validThrough: String
    public var trailingRun: Int
    public var trailingRunStart: String?
    public var longest: Int
    public var longestStart: String?
    public var longestEnd: String?
    public var totalDone: Int
    public var score: Double
    public var checksum: Int64
    /// The earliest entry day noted as changed since the state was written, if any.
    public var noted: String?

    public init(
        version: Int, basis: String, through: String, validThrough: String, trailingRun: Int,
        trailingRunStart: String?, longest: Int, longestStart: String?, longestEnd: String?, totalDone: Int,
        score: Double, checksum: Int64, noted: String?
    ) {
        self.version = version
        self.basis = basis
        self.through = through
        self.validThrough = validThrough
        self.trailingRun = trailingRun
        self.trailingRunStart = trailingRunStart
        self.longest = longest
        self.longestStart = longestStart
        self.longestEnd = longestEnd
        self.totalDone = totalDone
        self.score = score
        self.checksum = checksum
        self.noted = noted
    }

    /// The row a store writes for `checkpoint` of `habit`, judged with `context`.
    public init(_ checkpoint: HabitCheckpoint, of habit: Habit, context: HabitStateContext) {
        let validThrough = HabitCheckpoint.validThrough(checkpoint.through, schedule: habit.schedule)
        let basis = HabitCheckpoint.basis(
            schedule: habit.schedule, firstDay: habit.createdDay, weekStart: context.weekStart,
            travelDays: context.travelDays(of: habit.id), validThrough: validThrough)
        self.init(
            version: HabitCheckpoint.version, basis: basis, through: checkpoint.through.description,
            validThrough: validThrough.description, trailingRun: checkpoint.trailingRun,
            trailingRunStart: checkpoint.trailingRunStart?.description, longest: checkpoint.longest,
            longestStart: checkpoint.longestStart?.description, longestEnd: checkpoint.longestEnd?.description,
            totalDone: checkpoint.totalDone, score: checkpoint.score,
            checksum: checkpoint.checksum(habitID: habit.id, basis: basis), noted: nil)
    }

    /// The checkpoint when it can be trusted for `habit` as it is now: of this version, intact
    /// (checksum), computed from the inputs in force (schedule, first day, week start, travel days
    /// it covers), and with no entry on or before the last day it rests on noted since. Nil when it
    /// is stale: the reader judges the whole history and has the state rebuilt.
    public func trusted(for habit: Habit, context: HabitStateContext) -> HabitCheckpoint? {
        guard version == HabitCheckpoint.version, let through = LocalDay(through),
            let validThrough = LocalDay(validThrough),
            validThrough == HabitCheckpoint.validThrough(through, schedule: habit.schedule)
        else { return nil }
        func day(_ text: String?) -> LocalDay? { text.flatMap { LocalDay($0) } }
        let checkpoint = HabitCheckpoint(
            through: through, trailingRun: trailingRun, trailingRunStart: day(trailingRunStart), longest: longest,
            longestStart: day(longestStart), longestEnd: day(longestEnd), totalDone: totalDone, score: score)
        let expected = HabitCheckpoint.basis(
            schedule: habit.schedule, firstDay: habit.createdDay, weekStart: context.weekStart,
            travelDays: context.travelDays(of: habit.id), validThrough: validThrough)
        guard basis == expected, checksum == checkpoint.checksum(habitID: habit.id, basis: basis) else { return nil }
        if let noted = day(noted), noted <= validThrough { return nil }
        return checkpoint
    }
}

/// Bringing one habit's stored state up to date after a write: it sums the history up through the
/// latest day that a late entry will not change, carried on from the stored state when that is
/// sound and nothing it rests on was touched, else from the whole history. Nil from `plan` when the
/// stored state already reaches that day.
public struct HabitStateRefresh: Sendable {
    let habit: Habit
    let through: LocalDay
    /// The reading as of the first day whose judgement can no longer change those through `through`.
    let reading: HabitReading
    /// The first day whose entries `checkpoint(recorded:)` needs; nil for all of them.
    public var origin: LocalDay? { reading.origin }
    /// True when no entry is needed at all (the habit has none on or after its first day).
    public var needsNoEntries: Bool { through < habit.createdDay }

    /// - Parameters:
    ///   - stored: the trusted stored checkpoint (`StoredHabitState.trusted`), if any.
    ///   - touched: the earliest entry day the write changed; nil when it changed no entry.
    ///   - latest: the habit's latest recorded day, if any.
    public static func plan(
        _ habit: Habit, stored: HabitCheckpoint?, touched: LocalDay?, latest: LocalDay?, context: HabitStateContext
    ) -> HabitStateRefresh? {
        let schedule = habit.schedule, firstDay = habit.createdDay
        var stored = stored
        if let state = stored, let touched, touched <= HabitCheckpoint.validThrough(state.through, schedule: schedule) {
            stored = nil
        }
        let through =
            latest.map {
                HabitCheckpoint.day(latest: $0, firstDay: firstDay, schedule: schedule, weekStart: context.weekStart)
            } ?? firstDay.adding(days: -1)
        if let stored, through <= stored.through { return nil }
        let today = HabitCheckpoint.validThrough(through, schedule: schedule).adding(days: 1)
        return HabitStateRefresh(
            habit: habit, through: through,
            reading: HabitReading(habit, today: today, need: .summary, checkpoint: stored, context: context))
    }

    /// The new checkpoint, from the habit's entries from `origin` on.
    public func checkpoint(recorded: [(day: LocalDay, status: EntryStatus)]) -> HabitCheckpoint {
        guard !needsNoEntries else { return HabitCheckpoint.empty(before: habit.createdDay) }
        return reading.timeline(recorded: recorded).summary(through: through)
    }
}

/// How a reader judges one habit as of `today` for what `need` asks: carried on from its trusted
/// stored checkpoint when there is one and `need` is short of `.all`, else from the whole history.
public struct HabitReading: Sendable {
    let habit: Habit
    let today: LocalDay
    let firstDay: LocalDay
    let context: HabitStateContext
    let resuming: (checkpoint: HabitCheckpoint, plan: (origin: LocalDay, knownFrom: LocalDay))?
    /// The first day whose entries `timeline(recorded:)` needs; nil for all of them.
    public var origin: LocalDay? { resuming?.plan.origin }

    public init(
        _ habit: Habit, today: LocalDay, need: HistoryNeed, checkpoint: HabitCheckpoint?, context: HabitStateContext
    ) {
        self.habit = habit
        self.today = today
        self.context = context
        // A habit created "later" (by a clock change) is judged from today.
        firstDay = min(habit.createdDay, today)
        resuming = checkpoint.flatMap { [firstDay] checkpoint in
            HabitTimeline.resumePlan(
                from: checkpoint, need: need, schedule: habit.schedule, firstDay: firstDay, today: today,
                weekStart: context.weekStart
            ).map { (checkpoint: checkpoint, plan: $0) }
        }
    }

    /// The habit's timeline from its entries from `origin` on.
    public func timeline(recorded: [(day: LocalDay, status: EntryStatus)]) -> HabitTimeline {
        if let resuming {
            HabitTimeline(
                schedule: habit.schedule, firstDay: firstDay, today: today, resuming: resuming.checkpoint,
                plan: resuming.plan, recorded: recorded, travelDays: context.travelDays(of: habit.id),
                weekStart: context.weekStart)
        } else {
            HabitTimeline(
                schedule: habit.schedule, firstDay: firstDay, today: today, recorded: recorded,
                travelDays: context.travelDays(of: habit.id), weekStart: context.weekStart)
        }
    }
}
