/// A habit's judged history summed up through a day whose judgement can no longer change: the
/// derived state the store keeps beside the entries, so that status, the gate, the check pass and
/// the server's summary read one row per habit and judge only the days since (`HabitTimeline`'s
/// resuming init). Pure: the store decides when to write one and checks it before use.
///
/// Days up to `through` are final once today is later than `validThrough` and nothing recorded on
/// or before `validThrough` changes: a done day covers the days after it, a calendar period is
/// judged whole, and a rolling window of n days reaches n-1 days past the day it judges.
public struct HabitCheckpoint: Hashable, Sendable {
    /// Bumped whenever what a checkpoint holds or how it is computed changes: a stored one of
    /// another version is rebuilt, never trusted.
    public static let version = 1

    /// The last day summed up.
    public let through: LocalDay
    /// Covered days in the run that reaches `through` (bridged and open days pass, a missed day
    /// ends it), and the first covered day of that run.
    public let trailingRun: Int
    public let trailingRunStart: LocalDay?
    /// The longest run of covered days through `through`, with its first and last covered day.
    public let longest: Int
    public let longestStart: LocalDay?
    public let longestEnd: LocalDay?
    /// Done days through `through`.
    public let totalDone: Int
    /// The habit strength at the end of `through`.
    public let score: Double

    public init(
        through: LocalDay, trailingRun: Int, trailingRunStart: LocalDay?, longest: Int, longestStart: LocalDay?,
        longestEnd: LocalDay?, totalDone: Int, score: Double
    ) {
        self.through = through
        self.trailingRun = trailingRun
        self.trailingRunStart = trailingRunStart
        self.longest = longest
        self.longestStart = longestStart
        self.longestEnd = longestEnd
        self.totalDone = totalDone
        self.score = score
    }

    /// Nothing yet: the state of a habit the day before its first day.
    public static func empty(before firstDay: LocalDay) -> HabitCheckpoint {
        HabitCheckpoint(
            through: firstDay.adding(days: -1), trailingRun: 0, trailingRunStart: nil, longest: 0, longestStart: nil,
            longestEnd: nil, totalDone: 0, score: 0)
    }

    /// How many days past a day its judgement can still change with what is recorded after it:
    /// n-1 for a rolling window of n days, none for the other schedules.
    public static func reach(of schedule: Schedule) -> Int {
        if case .timesInDays(_, let n) = schedule { return n - 1 }
        return 0
    }

    /// The last day of a checkpoint `validThrough` ends at: entries on or before it invalidate it.
    public static func validThrough(_ through: LocalDay, schedule: Schedule) -> LocalDay {
        through.adding(days: reach(of: schedule))
    }

    /// The day a checkpoint written when `latest` is the last recorded day should sum up to: far
    /// enough back that a day recorded late (after a trip west) does not undo it, at the end of a
    /// calendar period for weekly and monthly habits, and never before the day before `firstDay`.
    public static func day(latest: LocalDay, firstDay: LocalDay, schedule: Schedule, weekStart: Int) -> LocalDay {
        let candidate = latest.adding(days: -2 - reach(of: schedule))
        let end = Self.periodStart(of: candidate, schedule: schedule, weekStart: weekStart)
            .map { $0.adding(days: -1) } ?? candidate
        return max(end, firstDay.adding(days: -1))
    }

    /// The first day of the calendar period holding `day`; nil for schedules without periods.
    static func periodStart(of day: LocalDay, schedule: Schedule, weekStart: Int) -> LocalDay? {
        switch schedule {
        case .timesPerWeek: day.startOfWeek(weekStart: weekStart)
        case .timesPerMonth: day.startOfMonth
        default: nil
        }
    }

    /// The inputs besides the entries that the days through `validThrough` were judged with: a
    /// stored checkpoint whose basis differs from the one computed now (the schedule, first day or
    /// week start changed, or a zone change landed on a day it covers) is rebuilt.
    public static func basis(
        schedule: Schedule, firstDay: LocalDay, weekStart: Int, travelDays: Set<LocalDay>, validThrough: LocalDay
    ) -> String {
        let travel = travelDays.filter { $0 <= validThrough }.sorted().map(\.description).joined(separator: ",")
        return "v\(version)|\(schedule.storageValue)|\(firstDay)|\(weekStart)|\(travel)"
    }

    /// A check over every field and what they were computed from, so that a row edited by hand
    /// (or damaged) is noticed and rebuilt.
    public func checksum(habitID: Int64, basis: String) -> Int64 {
        let fields = [
            String(habitID), basis, through.description, String(trailingRun), trailingRunStart?.description ?? "-",
            String(longest), longestStart?.description ?? "-", longestEnd?.description ?? "-", String(totalDone),
            String(score.bitPattern),
        ]
        return Int64(bitPattern: FNV1a.hash(fields.joined(separator: "|").utf8))
    }
}

/// What a reader of a habit's timeline needs judged day by day: the less, the fewer days read.
public enum HistoryNeed: Sendable, Equatable {
    /// Streaks, score, totals, today's state and how long the streak can wait: status, gate, check.
    case summary
    /// Also every day from this one on (`status(on:)`, `days`, completion rates over the days
    /// since): reports, the entry just changed.
    case days(from: LocalDay)
    /// Every day since the first: exports and charts of the score.
    case all
}

extension HabitTimeline {
    /// Where a timeline resumed from `checkpoint` must start for what `need` asks (as of `today`):
    /// the first day whose marks it reads, and the first it judges exactly. Nil when resuming
    /// would read the whole history anyway, or the checkpoint cannot serve `today`.
    public static func resumePlan(
        from checkpoint: HabitCheckpoint, need: HistoryNeed, schedule: Schedule, firstDay: LocalDay,
        today: LocalDay, weekStart: Int
    ) -> (origin: LocalDay, knownFrom: LocalDay)? {
        guard need != .all, today >= firstDay,
            today > HabitCheckpoint.validThrough(checkpoint.through, schedule: schedule)
        else { return nil }
        // Days judged exactly: the day after the checkpoint, the days `daysUntilBreak` re-judges
        // (a span before today, and the calendar period holding today), and what `need` asks.
        var known = min(checkpoint.through.adding(days: 1), today.adding(days: -breakSpan(of: schedule)))
        if let start = HabitCheckpoint.periodStart(of: today, schedule: schedule, weekStart: weekStart) {
            known = min(known, start)
        }
        if case .days(let from) = need { known = min(known, from) }
        // A day's judgement reads the days before it: n for every-n-days and rolling windows, the
        // whole calendar period for weekly and monthly habits (so both start at a period start).
        let lookback: Int
        switch schedule {
        case .daily: lookback = 1
        case .everyDays(let n), .timesInDays(_, let n): lookback = n
        case .timesPerWeek, .timesPerMonth: lookback = 0
        }
        // The score carries on from the checkpoint's with the done days of its window before it.
        var (times, days) = schedule.frequency
        if times < days { times *= 2; days *= 2 }
        var origin = min(known.adding(days: -lookback), checkpoint.through.adding(days: 1 - days))
        if let start = HabitCheckpoint.periodStart(of: known, schedule: schedule, weekStart: weekStart) {
            known = start
            origin = HabitCheckpoint.periodStart(of: origin, schedule: schedule, weekStart: weekStart)!
        }
        guard origin > firstDay else { return nil }
        return (origin, known)
    }

    /// How far back from the day after a checkpoint a resumed summary can read: for every `today`
    /// it serves, `resumePlan(need: .summary)`'s origin is on or after `through + 1 - resumeSpan`. A
    /// store that reads a habit's entries beside its state, before it knows the origin, reads that
    /// far back (the known-from days, the lookback and the score's window, then a period's start).
    public static func resumeSpan(of schedule: Schedule) -> Int {
        let lookback: Int, period: Int
        switch schedule {
        case .daily: (lookback, period) = (1, 0)
        case .everyDays(let n), .timesInDays(_, let n): (lookback, period) = (n, 0)
        case .timesPerWeek: (lookback, period) = (0, 7)
        case .timesPerMonth: (lookback, period) = (0, 31)
        }
        var (times, days) = schedule.frequency
        if times < days { times *= 2; days *= 2 }
        let before = max(breakSpan(of: schedule), max(period - 1, 0)) + lookback
        return max(before, days) + max(period - 1, 0)
    }

    /// How many days before today `daysUntilBreak` looks: a day still open lies within one span.
    static func breakSpan(of schedule: Schedule) -> Int {
        switch schedule {
        case .daily: 1
        case .everyDays(let n): n
        case .timesPerWeek: 7
        case .timesPerMonth: 31
        case .timesInDays(_, let n): n
        }
    }
}
