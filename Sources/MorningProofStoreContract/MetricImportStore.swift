import Foundation
import MorningProofCore

/// Health metrics as they are imported, and the day totals read back (`metrics import`,
/// `metrics show`, the watched sources, `POST /api/metrics`). Served by SQLite and PostgreSQL;
/// every account's metrics are its own (the CLI's are the owner's, account 1).
public protocol MetricImportStore: MetricStore {
    /// Stores a batch as the account's and, in the same transaction, what was read of its file, so
    /// that a crash never leaves samples counted without the resume point that covers them (or the
    /// reverse). The days whose data changed (`daysTouched`) are marked for the next judgement of
    /// goals (`metricDaysToJudge`), in the same transaction.
    func storeMetrics(_ batch: MetricBatch, file: WatchedFileState?) async throws -> MetricWriteOutcome
    /// The days whose metric data changed since their goals were last judged, each with its mark
    /// (which grows with every change).
    func metricDaysToJudge() async throws -> [LocalDay: Int64]
    /// Forgets the marks of days judged, each only when it was not marked again since it was read
    /// (a write that came during the judgement is judged next time).
    func judgedMetricDays(_ marks: [LocalDay: Int64]) async throws
    /// The (metric, day, source) totals on `days` above their metric's ceiling: they do not count.
    func metricTotalsAboveCeiling(on days: Set<LocalDay>) async throws -> [(
        metric: HealthMetric, total: SourceDayTotal
    )]
    /// Every metric with data on each day from `from` through `to`, keyed by `HealthMetric` raw names.
    func metricDays(from: LocalDay, to: LocalDay) async throws -> [LocalDay: [String: Double]]
    /// The first and last day with any metric data, or nil when there is none.
    func metricDayRange() async throws -> ClosedRange<LocalDay>?
}
