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
public struct HabitTimeline: Sendable {
    public let schedule: Schedule
    public let firstDay: LocalDay
    public let today: LocalDay
    public let weekStart: Int
    /// Marks from `firstDay` through `lastDay`, indexed by day offset.
    let marks: [DayMark]
    /// Judgements parallel to `marks`.
    public let days: [DayStatus]

    /// The last day of the history: today, or a later day already recorded (after a westward trip).
    public var lastDay: LocalDay { firstDay.adding(days: marks.count - 1) }

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
        self.schedule = schedule
        self.firstDay = firstDay
        self.today = today
        self.weekStart = weekStart
        let last = max(today, recorded.lazy.map(\.day).max() ?? today, firstDay)
        var marks = [DayMark](repeating: .empty, count: firstDay.days(to: last) + 1)
        for day in travelDays where day >= firstDay && day <= last {
            marks[firstDay.days(to: day)] = .travel
        }
        for (day, status) in recorded where day >= firstDay {
            marks[firstDay.days(to: day)] = status == .done ? .done : .skipped
        }
        self.marks = marks
        let coverage = CoverageRules(schedule: schedule, firstDay: firstDay, today: today, weekStart: weekStart)
            .judge(marks)
        days = zip(marks.indices, coverage).map { index, cover in
            DayStatus(day: firstDay.adding(days: index), mark: marks[index], coverage: cover)
        }
    }

    public func status(on day: LocalDay) -> DayStatus? {
        guard day >= firstDay, day <= lastDay else { return nil }
        return days[firstDay.days(to: day)]
    }

    /// Covered days in the run that reaches today: bridged and open days pass, a missed day ends it.
    public var currentStreak: Int {
        var count = 0
        for status in days.reversed() {
            switch status.coverage {
            case .covered: count += 1
            case .bridged, .open: continue
            case .missed: return count
            }
        }
        return count
    }

    /// The longest run of covered days, with its first and last covered day.
    public var longestStreak: (length: Int, start: LocalDay?, end: LocalDay?) {
        var best: (length: Int, start: LocalDay?, end: LocalDay?) = (0, nil, nil)
        var length = 0
        var start: LocalDay?
        for status in days {
            switch status.coverage {
            case .covered:
                if length == 0 { start = status.day }
                length += 1
                if length > best.length { best = (length, start, status.day) }
            case .bridged, .open: continue
            case .missed: length = 0
            }
        }
        return best
    }

    public var totalDone: Int { marks.reduce(0) { $0 + ($1 == .done ? 1 : 0) } }

    /// How many more days the habit can stay undone before the current streak ends
    /// (0: it must be done today). Found by letting days pass with nothing recorded.
    public var daysUntilBreak: Int {
        let span: Int
        switch schedule {
        case .daily: span = 1
        case .everyDays(let n): span = n
        case .timesPerWeek: span = 7
        case .timesPerMonth: span = 31
        case .timesInDays(_, let n): span = n
        }
        let todayIndex = firstDay.days(to: today)
        guard todayIndex >= 0 else { return 0 }  // a habit that starts after today
        // Broken already: the current week or month (or today) can no longer be met.
        if days[currentPeriodStart...].contains(where: { $0.coverage == .missed }) { return 0 }
        // A day still open before today lies within one span of it; earlier days cannot change.
        let from = max(0, todayIndex - span)
        // Whether leaving today and the next `wait` days undone ends the streak: a day from today
        // on is missed, or an earlier day still open (a rolling window that can no longer be
        // completed) turns missed. Waiting longer never mends a day, so the answer is monotone.
        func breaks(after wait: Int) -> Bool {
            let later = today.adding(days: wait + 1)
            var tail = marks
            if later > lastDay { tail += [DayMark](repeating: .empty, count: lastDay.days(to: later)) }
            let rules = CoverageRules(schedule: schedule, firstDay: firstDay, today: later, weekStart: weekStart)
            let judged = rules.judge(tail, from: from)
            return judged[todayIndex...(todayIndex + wait)].contains(.missed)
                || (from..<todayIndex).contains(where: { judged[$0] == .missed && days[$0].coverage == .open })
        }
        var low = 0, high = 2 * span
        guard breaks(after: high) else { return high }
        while low < high {
            let mid = (low + high) / 2
            if breaks(after: mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The index of the first day of the calendar period holding today (of today itself for
    /// schedules without calendar periods), never before the first day.
    var currentPeriodStart: Int {
        let start: LocalDay
        switch schedule {
        case .timesPerWeek: start = today.startOfWeek(weekStart: weekStart)
        case .timesPerMonth: start = today.startOfMonth
        default: start = today
        }
        return max(0, firstDay.days(to: start))
    }

    /// Share of the due days (covered or missed) in the `window` days ending today that were covered.
    /// Nil when no day of the window was due yet.
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

    /// Loop Habit Tracker's habit strength (0 to 1) at the end of the history; today counts once it is recorded.
    public var score: Double {
        HabitScore.score(marks: marks, todayIndex: firstDay.days(to: today), frequency: schedule.frequency)
    }
}

/// Where a habit stands today.
public enum TodayState: String, Sendable, Codable {
    case done, skipped, pending
    /// Covered by the schedule already (done two days ago on an every-3-days habit, the week's target met).
    case notDue = "not due"
}

extension HabitTimeline {
    public var todayState: TodayState {
        guard let status = status(on: today) else { return .pending }
        switch (status.mark, status.coverage) {
        case (.done, _): return .done
        case (.skipped, _), (.travel, _): return .skipped
        case (.empty, .covered): return .notDue
        default: return .pending
        }
    }
}
