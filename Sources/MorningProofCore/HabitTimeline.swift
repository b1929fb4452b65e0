/// What was recorded on a day of a habit.
public enum DayMark: String, Sendable, Codable {
    case done, skipped
    /// A day on which the zone changed, left empty: it bridges a streak like a skip.
    case travel
    case empty
}

/// How a day counts for the streak once the schedule is applied.
public enum Coverage: String, Sendable, Codable {
    /// Done, or covered by the schedule (within N days of a done day, a week that met its target).
    case covered
    /// Skipped or a travel day: the streak runs through it without growing.
    case bridged
    /// Not judged yet: today while empty, or a period whose target can still be reached.
    case open
    /// Due and not done: the streak ends here.
    case missed
}

/// One day of a habit's history with its judgement.
public struct DayStatus: Hashable, Sendable {
    public let day: LocalDay
    public let mark: DayMark
    public let coverage: Coverage

    /// The word used in reports: done, skipped, travel, covered, open or missed.
    public var state: String {
        switch (mark, coverage) {
        case (.done, _): "done"
        case (.skipped, _): "skipped"
        case (.travel, _): "travel"
        case (.empty, .covered): "covered"
        case (.empty, .open): "open"
        case (.empty, .bridged): "skipped"
        case (.empty, .missed): "missed"
        }
    }
}

/// The recorded days of one habit, judged against its schedule. Pure: no clock, no I/O.
/// Either the whole history from the first day, or the days since a `HabitCheckpoint` (with the
/// few days before it that their judgement reads): every figure is the same either way.
public struct HabitTimeline: Sendable {
    public let schedule: Schedule
    /// The habit's first day.
    public let firstDay: LocalDay
    public let today: LocalDay
    public let weekStart: Int
    /// The first day of `marks`: `firstDay`, or a later day when resumed from a checkpoint.
    let origin: LocalDay
    /// Marks from `origin` through `lastDay`, indexed by day offset.
    let marks: [DayMark]
    /// The judged days from `knownFrom` through `lastDay`: the whole history unless resumed.
    public let days: [DayStatus]
    /// The first day in `days`.
    public let knownFrom: LocalDay
    /// The summed-up history this timeline carries on from; nil for a whole history.
    let prior: HabitCheckpoint?

    /// The last day of the history: today, or a later day already recorded (after a westward trip).
    public var lastDay: LocalDay { origin.adding(days: marks.count - 1) }

    /// - Parameters:
    ///   - entries: the status of each recorded day; days before `firstDay` are ignored.
    ///   - travelDays: days on which the zone changed; an empty one bridges like a skip.
    public init(
        schedule: Schedule, firstDay: LocalDay, today: LocalDay, entries: [LocalDay: EntryStatus],
        travelDays: Set<LocalDay> = [], weekStart: Int = 1
    ) {
        self.init(
            schedule: schedule, firstDay: firstDay, today: today, recorded: entries.map { ($0.key, $0.value) },
            travelDays: travelDays, weekStart: weekStart)
    }

    /// The same from a list of recorded days (one per day), which bulk reads produce without hashing.
    public init(
        schedule: Schedule, firstDay: LocalDay, today: LocalDay, recorded: [(day: LocalDay, status: EntryStatus)],
        travelDays: Set<LocalDay> = [], weekStart: Int = 1
    ) {
        self.init(
            schedule: schedule, firstDay: firstDay, today: today, recorded: recorded, travelDays: travelDays,
            weekStart: weekStart, origin: firstDay, knownFrom: firstDay, prior: nil)
    }

    /// The history carried on from `checkpoint`: `recorded` needs the days from `plan.origin` on
    /// (earlier ones are ignored), `plan` comes from `resumePlan`, which decides whether the
    /// checkpoint can serve `today` at all.
    public init(
        schedule: Schedule, firstDay: LocalDay, today: LocalDay, resuming checkpoint: HabitCheckpoint,
        plan: (origin: LocalDay, knownFrom: LocalDay), recorded: [(day: LocalDay, status: EntryStatus)],
        travelDays: Set<LocalDay> = [], weekStart: Int = 1
    ) {
        self.init(
            schedule: schedule, firstDay: firstDay, today: today, recorded: recorded, travelDays: travelDays,
            weekStart: weekStart, origin: plan.origin, knownFrom: plan.knownFrom, prior: checkpoint)
    }

    private init(
        schedule: Schedule, firstDay: LocalDay, today: LocalDay, recorded: [(day: LocalDay, status: EntryStatus)],
        travelDays: Set<LocalDay>, weekStart: Int, origin: LocalDay, knownFrom: LocalDay, prior: HabitCheckpoint?
    ) {
        self.schedule = schedule
        self.firstDay = firstDay
        self.today = today
        self.weekStart = weekStart
        self.origin = origin
        self.prior = prior
        let last = max(today, recorded.lazy.map(\.day).max() ?? today, origin)
        var marks = [DayMark](repeating: .empty, count: origin.days(to: last) + 1)
        for day in travelDays where day >= origin && day <= last {
            marks[origin.days(to: day)] = .travel
        }
        for (day, status) in recorded where day >= origin {
            marks[origin.days(to: day)] = status == .done ? .done : .skipped
        }
        self.marks = marks
        let known = min(max(origin, knownFrom), last)
        self.knownFrom = known
        let lead = origin.days(to: known)
        let coverage = CoverageRules(schedule: schedule, firstDay: origin, today: today, weekStart: weekStart)
            .judge(marks, from: lead)
        days = (lead..<marks.count).map { index in
            DayStatus(day: origin.adding(days: index), mark: marks[index], coverage: coverage[index])
        }
    }

    /// The judgement of `day`; nil before `knownFrom` or after the last day.
    public func status(on day: LocalDay) -> DayStatus? {
        guard day >= knownFrom, day <= lastDay else { return nil }
        return days[knownFrom.days(to: day)]
    }

    /// The whole history summed up through `day` (at most the last day): the checkpoint a store
    /// keeps once the days through `day` can no longer change, and every figure below.
    public func summary(through day: LocalDay) -> HabitCheckpoint {
        let start = prior ?? .empty(before: firstDay)
        var run = start.trailingRun, runStart = start.trailingRunStart
        var best = (length: start.longest, start: start.longestStart, end: start.longestEnd)
        var done = start.totalDone
        let end = min(day, lastDay)
        let from = max(start.through.adding(days: 1), knownFrom)
        if from <= end {
            for status in days[knownFrom.days(to: from)...knownFrom.days(to: end)] {
                if status.mark == .done { done += 1 }
                switch status.coverage {
                case .covered:
                    if run == 0 { runStart = status.day }
                    run += 1
                    if run > best.length { best = (run, runStart, status.day) }
                case .bridged, .open: continue
                case .missed: run = 0; runStart = nil
                }
            }
        }
        let score = HabitScore.score(
            marks: marks, todayIndex: origin.days(to: today), frequency: schedule.frequency,
            resuming: prior.map { (origin.days(to: $0.through) + 1, $0.score) }, through: origin.days(to: end))
        return HabitCheckpoint(
            through: max(end, start.through), trailingRun: run, trailingRunStart: runStart, longest: best.length,
            longestStart: best.start, longestEnd: best.end, totalDone: done, score: score)
    }

    /// Covered days in the run that reaches today: bridged and open days pass, a missed day ends it.
    public var currentStreak: Int { summary(through: lastDay).trailingRun }

    /// The longest run of covered days, with its first and last covered day.
    public var longestStreak: (length: Int, start: LocalDay?, end: LocalDay?) {
        let summary = summary(through: lastDay)
        return (summary.longest, summary.longestStart, summary.longestEnd)
    }

    public var totalDone: Int { summary(through: lastDay).totalDone }

    /// Loop Habit Tracker's habit strength (0 to 1) at the end of the history; today counts once it is recorded.
    public var score: Double { summary(through: lastDay).score }

    /// How many more days the habit can stay undone before the current streak ends
    /// (0: it must be done today). Found by letting days pass with nothing recorded.
    public var daysUntilBreak: Int {
        let span = Self.breakSpan(of: schedule)
        let todayIndex = origin.days(to: today)
        guard todayIndex >= 0 else { return 0 }  // a habit that starts after today
        let lead = origin.days(to: knownFrom)
        // Broken already: the current week or month (or today) can no longer be met.
        if days[max(0, currentPeriodStart - lead)...].contains(where: { $0.coverage == .missed }) { return 0 }
        // A day still open before today lies within one span of it; earlier days cannot change.
        let from = max(0, todayIndex - span)
        // Whether leaving today and the next `wait` days undone ends the streak: a day from today
        // on is missed, or an earlier day still open (a rolling window that can no longer be
        // completed) turns missed. Waiting longer never mends a day, so the answer is monotone.
        func breaks(after wait: Int) -> Bool {
            let later = today.adding(days: wait + 1)
            var tail = marks
            if later > lastDay { tail += [DayMark](repeating: .empty, count: lastDay.days(to: later)) }
            let rules = CoverageRules(schedule: schedule, firstDay: origin, today: later, weekStart: weekStart)
            let judged = rules.judge(tail, from: from)
            return judged[todayIndex...(todayIndex + wait)].contains(.missed)
                || (max(from, lead)..<todayIndex).contains(where: {
                    judged[$0] == .missed && days[$0 - lead].coverage == .open
                })
        }
        var low = 0, high = 2 * span
        guard breaks(after: high) else { return high }
        while low < high {
            let mid = (low + high) / 2
            if breaks(after: mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The index in `marks` of the first day of the calendar period holding today (of today itself
    /// for schedules without calendar periods), never before the first day.
    var currentPeriodStart: Int {
        let start = HabitCheckpoint.periodStart(of: today, schedule: schedule, weekStart: weekStart) ?? today
        return max(0, origin.days(to: start))
    }

    /// Share of the due days (covered or missed) in the `window` days ending today that were covered.
    /// Nil when no day of the window was due yet. A resumed timeline answers for the days it knows.
    public func completionRate(lastDays window: Int) -> Double? {
        let from = max(firstDay, today.adding(days: -(window - 1)))
        var covered = 0, due = 0
        for status in days where status.day >= from && status.day <= today {
            switch status.coverage {
            case .covered: covered += 1; due += 1
            case .missed: due += 1
            case .bridged, .open: break
            }
        }
        return due == 0 ? nil : Double(covered) / Double(due)
    }
}

/// Where a habit stands today.
public enum TodayState: String, Sendable, Codable {
    case done, skipped, pending
    /// A travel day (the zone changed today) still empty: the streak is safe whatever happens, and
    /// the habit is still open to be done.
    case travel
    /// Covered by the schedule already (done two days ago on an every-3-days habit, the week's target met).
    case notDue = "not due"
}

extension TodayState {
    /// What the state means for a person, where the word alone does not say it (a travel day).
    public var sentence: String? {
        switch self {
        case .travel: "travel day: your streak is safe"
        case .done, .skipped, .pending, .notDue: nil
        }
    }
}

extension HabitTimeline {
    /// Where the habit stands today: done, skipped, a travel day, not due, or pending.
    public var todayState: TodayState {
        guard let status = status(on: today) else { return .pending }
        switch (status.mark, status.coverage) {
        case (.done, _): return .done
        case (.skipped, _): return .skipped
        case (.travel, _): return .travel
        case (.empty, .covered): return .notDue
        default: return .pending
        }
    }
}
