import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// A row of `habit`, mapped to and from Core's `Habit`.
struct HabitRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "habit"

    var id: Int64?
    var accountId: Int64
    var name: String
    var kind: String
    var schedule: String
    var remindAt: Int?
    var required: Bool
    var note: String?
    var archived: Bool
    var goalMetric: String?
    var goalComparison: String?
    var goalTarget: Double?
    var goalActivity: String?
    var createdDay: String
    var createdAt: Date

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let accountId = Column(CodingKeys.accountId)
        static let name = Column(CodingKeys.name)
        static let archived = Column(CodingKeys.archived)
        /// Everything an edit may change: all but the id and the creation.
        static let editable: [Column] = [
            CodingKeys.name, .kind, .schedule, .remindAt, .required, .note, .archived, .goalMetric, .goalComparison,
            .goalTarget, .goalActivity,
        ].map { Column($0) }
    }

    init(_ habit: Habit, accountID: Int64) {
        id = habit.id == 0 ? nil : habit.id
        accountId = accountID
        name = habit.name
        kind = habit.kind.rawValue
        schedule = habit.schedule.storageValue
        remindAt = habit.remindAt
        required = habit.required
        note = habit.note
        archived = habit.archived
        goalMetric = habit.goal?.metric
        goalComparison = habit.goal?.comparison.rawValue
        goalTarget = habit.goal?.target
        goalActivity = habit.goal?.activity
        createdDay = habit.createdDay.description
        createdAt = habit.createdAt
    }

    /// Read column by column: the Codable decoder casts each field's type at run time, which cost
    /// `status` more than a millisecond of conformance lookups in the static binary.
    init(row: Row) throws {
        id = row["id"]
        accountId = row["accountId"]
        name = row["name"]
        kind = row["kind"]
        schedule = row["schedule"]
        remindAt = row["remindAt"]
        required = row["required"]
        note = row["note"]
        archived = row["archived"]
        goalMetric = row["goalMetric"]
        goalComparison = row["goalComparison"]
        goalTarget = row["goalTarget"]
        goalActivity = row["goalActivity"]
        createdDay = row["createdDay"]
        createdAt = row["createdAt"]
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var habit: Habit {
        Habit.stored(
            id: id ?? 0, name: name, kind: kind, schedule: schedule, remindAt: remindAt, required: required,
            note: note, archived: archived, goalMetric: goalMetric, goalComparison: goalComparison,
            goalTarget: goalTarget, goalActivity: goalActivity, createdDay: createdDay, createdAt: createdAt)
    }
}

/// A row of `entry`, mapped to and from Core's `Entry`.
struct EntryRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "entry"

    var id: Int64?
    var habitId: Int64
    var day: String
    var status: String
    var value: Double?
    var source: String
    var note: String?
    var recordedAt: Date
    var zone: String

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let habitId = Column(CodingKeys.habitId)
        static let day = Column(CodingKeys.day)
        /// Everything a replacing entry changes: all but the key (habit, day).
        static let replaced: [Column] = [CodingKeys.status, .value, .source, .note, .recordedAt, .zone].map {
            Column($0)
        }
    }

    init(_ entry: Entry, id: Int64? = nil) {
        self.id = id
        habitId = entry.habitID
        day = entry.day.description
        status = entry.status.rawValue
        value = entry.value
        source = entry.source.rawValue
        note = entry.note
        recordedAt = entry.recordedAt
        zone = entry.zone
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The entry, or nil for a row no release of this program writes (an unknown day or status).
    var entry: Entry? {
        Entry.stored(
            habitID: habitId, day: day, status: status, value: value, source: source, note: note,
            recordedAt: recordedAt, zone: zone)
    }

    /// The row of one habit's day.
    static func of(habitID: Int64, day: LocalDay) -> QueryInterfaceRequest<EntryRecord> {
        filter(Columns.habitId == habitID && Columns.day == day.description)
    }
}

/// A row of `notification`: one notification's claim for one day.
struct NotificationRow: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "notification"

    var id: Int64
    var key: String
    var day: String
    var event: String
    var state: String
    var attempts: Int
    var lastError: String?
    var claimToken: String?
    var claimedAt: Date?
    var deliveredAt: Date?
    var createdAt: Date

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let key = Column(CodingKeys.key)
        static let day = Column(CodingKeys.day)
        static let createdAt = Column(CodingKeys.createdAt)
        static let accountId = Column("accountId")
    }

    var notification: StoredNotification? {
        guard let day = LocalDay(day) else { return nil }
        return StoredNotification(
            key: key, day: day, event: event, state: NotificationState(rawValue: state) ?? .failed,
            attempts: attempts, lastError: lastError, claimedAt: claimedAt, deliveredAt: deliveredAt,
            createdAt: createdAt)
    }
}

/// A row of `evidence`: the photo that proved an entry.
struct EvidenceRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "evidence"

    var entryId: Int64
    var sha256: String
    var perceptualHash: Int64
    var captureTime: String?
    var verdict: String
    var confidence: Double
    var features: String
    var recordedAt: Date

    init(_ evidence: PhotoEvidence, entryID: Int64) {
        entryId = entryID
        sha256 = evidence.sha256
        perceptualHash = evidence.perceptualHash
        captureTime = evidence.captureTime
        verdict = evidence.verdict
        confidence = evidence.confidence
        features = evidence.features
        recordedAt = evidence.recordedAt
    }

    var evidence: PhotoEvidence {
        PhotoEvidence(
            sha256: sha256, perceptualHash: perceptualHash, captureTime: captureTime, verdict: verdict,
            confidence: confidence, features: features, recordedAt: recordedAt)
    }
}
