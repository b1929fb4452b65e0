import Foundation

/// What proves a habit: a person's word, a photo, a health metric, or a daily check-in answer.
public enum HabitKind: String, Codable, Sendable, CaseIterable {
    case manual, photo, metric, checkin
}

/// A habit as the domain sees it.
public struct Habit: Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var kind: HabitKind
    public var schedule: Schedule
    /// Local wall-clock minutes after midnight for a reminder, if any.
    public var remindAt: Int?
    /// Must be done (or skipped) before the gate opens.
    public var required: Bool
    public var note: String?
    public var archived: Bool
    /// For metric habits: the goal that completes the day.
    public var goal: MetricGoal?
    /// The day the habit was created: nothing before it can be recorded or counted.
    public var createdDay: LocalDay
    public var createdAt: Date

    public init(
        id: Int64 = 0, name: String, kind: HabitKind = .manual, schedule: Schedule = .daily,
        remindAt: Int? = nil, required: Bool = false, note: String? = nil, archived: Bool = false,
        goal: MetricGoal? = nil, createdDay: LocalDay, createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.schedule = schedule
        self.remindAt = remindAt
        self.required = required
        self.note = note
        self.archived = archived
        self.goal = goal
        self.createdDay = createdDay
        self.createdAt = createdAt
    }
}

/// Whether a day was done or deliberately skipped.
public enum EntryStatus: String, Codable, Sendable {
    case done, skipped
}

/// Where an entry came from. A manual entry always wins over an automatic one.
public enum EntrySource: String, Codable, Sendable {
    case manual, photo, metric, `import`, checkin
}

/// One day of one habit.
public struct Entry: Hashable, Sendable {
    public var habitID: Int64
    public var day: LocalDay
    public var status: EntryStatus
    public var value: Double?
    public var source: EntrySource
    public var note: String?
    /// The instant the entry was recorded.
    public var recordedAt: Date
    /// The IANA zone in force when it was recorded.
    public var zone: String

    public init(
        habitID: Int64, day: LocalDay, status: EntryStatus, value: Double? = nil,
        source: EntrySource = .manual, note: String? = nil, recordedAt: Date, zone: String
    ) {
        self.habitID = habitID
        self.day = day
        self.status = status
        self.value = value
        self.source = source
        self.note = note
        self.recordedAt = recordedAt
        self.zone = zone
    }
}

/// Parses `HH:MM` into minutes after midnight within `range`.
public func parseClockTime(_ text: String, range: ClosedRange<Int> = 0...1439) -> Int? {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[1].count == 2, (1...2).contains(parts[0].count),
        let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m)
    else { return nil }
    let minutes = h * 60 + m
    return range.contains(minutes) ? minutes : nil
}

/// Formats minutes after midnight as `HH:MM`.
public func formatClockTime(_ minutes: Int) -> String {
    let h = minutes / 60, m = minutes % 60
    return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
}

/// What recording an entry did.
public enum RecordOutcome: Equatable, Sendable {
    /// A new entry was stored.
    case recorded
    /// The day already held an entry, which was replaced (a skip turned into done).
    case replaced(previous: EntryStatus)
    /// The day already held the same status: nothing changed.
    case unchanged
    /// The day holds a manual entry, which always wins over an automatic one: nothing changed.
    case keptManual
    /// A person acted on the day after this action happened (`LastWriter`): nothing changed.
    case superseded

    /// Recording `entry` on a day that holds `existing`: the same status again is harmless and stores
    /// nothing; a manual entry always wins over an automatic one; anything else replaces the day's entry.
    public static func of(recording entry: Entry, over existing: Entry?) -> RecordOutcome {
        guard let existing else { return .recorded }
        if existing.status == entry.status { return .unchanged }
        if existing.source == .manual && entry.source != .manual { return .keptManual }
        return .replaced(previous: existing.status)
    }
}
