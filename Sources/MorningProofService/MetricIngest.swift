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

    /// Reads `path`, which must be in `format` (dataError, 65 / 400, naming what it is instead, or
    /// when it is no metrics file at all; nothing stored then), stores its records as the
    /// account's, then judges the account's goals (`GoalJudge`) on the days whose data changed,
    /// today and yesterday: the `goal.met` events are claimed for the next pass to deliver.
    /// `realTime` stamps those claims.
    public func ingest(file path: String, as format: MetricFileFormat, now: Date, realTime: Date = Date())
        async throws -> IngestReport
    {
        let file: FileReport
        do {
            file = try await MetricImporter(database: store, clock: clock, cpu: cpu).importFile(path, as: format)
        } catch let error as MetricFileError {
            // A body that parses as its format at first and breaks later (JSON nested past the
            // parser's depth, a NaN, a zip with no export in it) is bad input, as `metrics import` says.
            throw MorningProofError(error.code.errorKind, error.message)
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
