import Foundation
import MorningProofCore

/// A habit as it travels between programs: what `export` writes and what every import produces.
/// Its JSON form is the export schema (docs/export-format.md): names never change within a version.
/// The habit's fields read and write through to `habit` (`portable.name`); ids never travel.
@dynamicMemberLookup
public struct PortableHabit: Equatable, Sendable {
    /// The habit, with id 0.
    public private(set) var habit: Habit
    /// Oldest first, one per day.
    public var entries: [PortableEntry]

    public init(_ habit: Habit, entries: [PortableEntry] = []) {
        var habit = habit
        habit.id = 0
        self.habit = habit
        self.entries = entries
    }

    public init(
        name: String, kind: HabitKind = .manual, schedule: Schedule = .daily, remindAt: Int? = nil,
        required: Bool = false, note: String? = nil, archived: Bool = false, goal: MetricGoal? = nil,
        createdDay: LocalDay, createdAt: Date, entries: [PortableEntry] = []
    ) {
        self.init(
            Habit(
                name: name, kind: kind, schedule: schedule, remindAt: remindAt, required: required, note: note,
                archived: archived, goal: goal, createdDay: createdDay, createdAt: createdAt),
            entries: entries)
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<Habit, Value>) -> Value {
        get { habit[keyPath: field] }
        set { habit[keyPath: field] = newValue }
    }
}

/// One day of a portable habit: the entry (habit id 0) and the metadata of its photo proofs.
@dynamicMemberLookup
public struct PortableEntry: Equatable, Sendable {
    public private(set) var entry: Entry
    /// Photo proofs of the day (metadata only, never the photo).
    public var evidence: [PortableEvidence]

    public init(_ entry: Entry, evidence: [PortableEvidence] = []) {
        var entry = entry
        entry.habitID = 0
        self.entry = entry
        self.evidence = evidence
    }

    public init(
        day: LocalDay, status: EntryStatus, value: Double? = nil, source: EntrySource, note: String? = nil,
        recordedAt: Date, zone: String, evidence: [PortableEvidence] = []
    ) {
        self.init(
            Entry(
                habitID: 0, day: day, status: status, value: value, source: source, note: note,
                recordedAt: recordedAt, zone: zone),
            evidence: evidence)
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<Entry, Value>) -> Value {
        get { entry[keyPath: field] }
        set { entry[keyPath: field] = newValue }
    }

    /// The entry as stored for the habit `habitID`.
    public func recorded(for habitID: Int64) -> Entry {
        var entry = entry
        entry.habitID = habitID
        return entry
    }
}

/// What a photo proof rests on, without the photo.
public struct PortableEvidence: Equatable, Sendable {
    /// SHA-256 of the photo file, 64 lowercase hex digits.
    public var sha256: String
    /// The 64-bit difference hash of the pixels (SQLite's signed integer; 16 hex digits in JSON).
    public var perceptualHash: Int64
    /// The camera's capture time (ISO 8601 with offset), when the photo had one.
    public var captureTime: String?
    public var verdict: String
    public var confidence: Double
    /// Every measured feature by name.
    public var features: [String: Double]
    public var recordedAt: Date

    public init(
        sha256: String, perceptualHash: Int64, captureTime: String?, verdict: String, confidence: Double,
        features: [String: Double], recordedAt: Date
    ) {
        self.sha256 = sha256
        self.perceptualHash = perceptualHash
        self.captureTime = captureTime
        self.verdict = verdict
        self.confidence = confidence
        self.features = features
        self.recordedAt = recordedAt
    }
}
