import Foundation
import HealthMetrics
import MorningProofCore
import MorningProofStoreContract

/// A goal that an ingest completed: the habit's entry of `day` is now done with `value`.
public struct CompletedGoal: Sendable, Equatable {
    public var habitID: Int64
    public var habit: String
    public var day: LocalDay
    /// The day's value of the goal's metric, in its base unit (steps, minutes, kcal, km).
    public var value: Double
    /// The goal's target, in the same unit.
    public var target: Double

    public init(habitID: Int64, habit: String, day: LocalDay, value: Double, target: Double) {
        self.habitID = habitID
        self.habit = habit
        self.day = day
        self.value = value
        self.target = target
    }
}

/// What one ingest did: the answer of `POST /api/metrics`.
public struct IngestReport: Sendable {
    /// Records read (samples, intervals, workouts), duplicates included.
    public var records = 0
    /// Records already stored (a resend, an overlapping payload): they changed nothing.
    public var duplicates = 0
    /// The first and last day whose data changed; nil when nothing changed.
    public var daysTouched: ClosedRange<LocalDay>?
    /// The first warnings (bad records, ceilings), at most 50; `warningCount` counts them all.
    public var warnings: [ReadWarning] = []
    public var warningCount = 0
    /// The goals this ingest completed.
    public var completed: [CompletedGoal] = []

    public init() {}
}

/// What a metrics body's Content-Type says it is: a format (`application/json` is Health Auto
/// Export JSON, `text/csv` CSV, ...), or a form whose file's format is found from its content.
public struct MetricBodyType: Sendable {
    /// The media types taken, in the order a refusal lists them, and the format each names; nil for
    /// a form.
    static let types: [(mediaType: String, format: MetricFileFormat?)] = [
        ("application/json", .healthAutoExport), ("application/x-ndjson", .jsonLines),
        ("application/jsonl", .jsonLines), ("text/csv", .csv), ("application/zip", .appleHealthZip),
        ("application/xml", .appleHealthXML), ("text/xml", .appleHealthXML), ("multipart/form-data", nil),
    ]

    /// The media types taken, in the order a refusal lists them.
    public static let mediaTypes = types.map(\.mediaType)

    /// The format the Content-Type names; nil for a form.
    let format: MetricFileFormat?

    /// The body type `mediaType` (lower case, without parameters) declares; nil for a type not taken.
    public init?(mediaType: String) {
        guard let known = Self.types.first(where: { $0.mediaType == mediaType }) else { return nil }
        format = known.format
    }

    /// A `multipart/form-data` form, whose one file part is the metrics file.
    public var isForm: Bool { format == nil }

    /// True when the body may be an Apple Health export (a form may hold one), whose limit is larger.
    public var mayBeAppleExport: Bool { format?.isAppleExport ?? true }
}

/// A metrics body received to a file, as `MetricIngest` reads it.
public struct ReceivedMetrics: Sendable {
    /// The file the body (a form's file part) was written to.
    public var path: String
    /// Its bytes.
    public var size: Int
    /// What the request's Content-Type declared.
    public var type: MetricBodyType
    /// What messages call the body, in place of its path: the client never knew the path.
    public var label: String
    /// The most bytes a body may have when it is no Apple export: a form's file is held to it once
    /// its content says what it is.
    public var limit: Int

    public init(path: String, size: Int, type: MetricBodyType, label: String, limit: Int) {
        self.path = path
        self.size = size
        self.type = type
        self.label = label
        self.limit = limit
    }
}

/// What one ingest of a received body came to, for a front end to answer with.
public enum IngestOutcome: Sendable {
    /// The body was read and stored, and the goals judged.
    case ingested(IngestReport)
    /// A form's file is no Apple export and is over the body's limit: nothing read.
    case tooLarge
}

/// One account's metrics arriving as a file (a body the server received, streamed to disk): read
/// as `metrics import` reads it, stored as the account's, then the account's goals judged for the
/// days it changed.
public struct MetricIngest {
    let store: any PerAccountStore
    let clock: DayClock
    /// Where the reading of a large file runs; nil: on the caller's task.
    let cpu: (any CPUWork)?

    public init(store: any PerAccountStore, clock: DayClock, cpu: (any CPUWork)? = nil) {
        self.store = store
        self.clock = clock
        self.cpu = cpu
    }

    /// The action of `POST /api/metrics`: reads `body` in the format its type declares or, for a
    /// form, the one its content shows (dataError, 400, when it is empty or no metrics file; `tooLarge` when
    /// it is no Apple export and over `body.limit`), then as `ingest(file:as:now:)`. Messages name
    /// the body by its label, never by its path.
    public func ingest(_ body: ReceivedMetrics, now: Date, realTime: Date = Date()) async throws -> IngestOutcome {
        guard body.size > 0 else { throw MorningProofError.dataError("\(body.label) is empty: send a metrics file") }
        let format: MetricFileFormat
        if let declared = body.type.format {
            format = declared
        } else {
            guard let found = try MetricFileFormat.detect(path: body.path) else {
                throw MorningProofError.dataError(
                    "the form's file is not a metrics file (expected an Apple Health export.xml or export.zip, Health Auto Export JSON, CSV with date,metric,value or JSON Lines)"
                )
            }
            if !found.isAppleExport, body.size > body.limit { return .tooLarge }
            format = found
        }
        return .ingested(
            try await ingest(file: body.path, as: format, shownAs: body.label, now: now, realTime: realTime))
    }

    /// Reads `path`, which must be in `format` (dataError, 65 / 400, naming what it is instead, or
    /// when it is no metrics file at all; nothing stored then), stores its records as the
    /// account's in one transaction (all or nothing, whatever the format), then judges the account's goals (`GoalJudge`) on the days whose data changed,
    /// today and yesterday: the `goal.met` events are claimed for the next pass to deliver.
    /// Messages name the file as `shownAs` (default: its path). `realTime` stamps those claims.
    public func ingest(
        file path: String, as format: MetricFileFormat, shownAs name: String? = nil, now: Date, realTime: Date = Date()
    ) async throws -> IngestReport {
        let file: FileReport
        do {
            var importer = MetricImporter(database: store, clock: clock, cpu: cpu)
            importer.upload = store
            file = try await importer.importFile(path, as: format, shownAs: name)
        } catch let error as MetricFileError {
            // A body that parses as its format at first and breaks later (JSON nested past the
            // parser's depth, a NaN, a zip with no export in it) is bad input, as `metrics import` says.
            throw error.morningProofError
        }
        var report = IngestReport()
        report.records = file.recordsRead
        report.duplicates = file.duplicatesSkipped
        if let first = file.daysTouched.min(), let last = file.daysTouched.max() { report.daysTouched = first...last }
        report.warnings = file.warnings
        report.warningCount = file.warningCount
        report.completed = try await GoalJudge(store: store, clock: clock).judge(
            at: now, realTime: realTime, delivery: .queued
        ).completed
        return report
    }
}
