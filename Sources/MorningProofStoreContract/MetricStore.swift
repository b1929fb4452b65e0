import Foundation
import MorningProofCore

/// Day values of the account's health metrics, as goals read them.
public protocol MetricStore: AccountScopedStore {
    /// A day's value of a metric (raw name of `HealthMetric`), by the daily-total rules; nil when
    /// no data counts for that day. `activity` filters workouts (`running`).
    func metricValue(metric: String, day: LocalDay, activity: String?) async throws -> Double?
    /// The values of a metric on each day from `from` through `to` that has one, read at once
    /// (a judgement of many days).
    func metricValues(metric: String, from: LocalDay, to: LocalDay, activity: String?) async throws
        -> [LocalDay: Double]
}

extension MetricStore {
    public func metricValue(metric: String, day: LocalDay, activity: String? = nil) async throws -> Double? {
        try await metricValues(metric: metric, from: day, to: day, activity: activity)[day]
    }
}

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
    func metricTotalsAboveCeiling(on days: Set<LocalDay>) async throws -> [(metric: HealthMetric, total: SourceDayTotal)]
    /// Every metric with data on each day from `from` through `to`, keyed by `HealthMetric` raw names.
    func metricDays(from: LocalDay, to: LocalDay) async throws -> [LocalDay: [String: Double]]
    /// The first and last day with any metric data, or nil when there is none.
    func metricDayRange() async throws -> ClosedRange<LocalDay>?
}

/// The files and folders `source add` watches, and what was last read of each file.
public protocol WatchedFileStore: Sendable {
    /// The paths watched (files or folders), in the order added.
    func metricSources() async throws -> [String]
    /// Watches a path; false when it was already watched.
    func addMetricSource(_ path: String, at instant: Date) async throws -> Bool
    /// Stops watching a path (and forgets what was read of the files under it); the totals
    /// already read stay. False when it was not watched.
    func removeMetricSource(_ path: String) async throws -> Bool
    /// What was last read of a file, or nil when it never was.
    func watchedFile(_ path: String) async throws -> WatchedFileState?
    /// Every file read so far, by path.
    func watchedFiles() async throws -> [String: WatchedFileState]
    /// Records what was read of a file (without any samples).
    func saveWatchedFile(_ state: WatchedFileState) async throws
}

/// Notifications of habits, each delivered once per day (`NotificationRules`).
public protocol NotificationStore: Sendable {
    /// Records the request's entry and claims its notification in the same write transaction, so
    /// that of two passes racing, exactly one gets the claim. A failed claim is given back until
    /// the day's last attempt; a claim held past `lease` seconds (its pass died
    /// mid-delivery) is taken over.
    func decideAndClaim(_ request: ClaimRequest, at now: Date, lease: TimeInterval) async throws -> ClaimDecision
    /// Marks a claimed notification delivered; false when the claim was no longer this pass's.
    func markDelivered(_ claim: NotificationClaim, at now: Date) async throws -> Bool
    /// Gives a claim back after its delivery failed, with the error, for the next pass to try again.
    func markFailed(_ claim: NotificationClaim, error: String) async throws
    /// The keys, among `keys`, whose notification of `day` needs nothing more: delivered, or
    /// given up after the last attempt.
    func settledNotificationKeys(_ keys: [String], day: LocalDay) async throws -> Set<String>
    /// Notifications of `day` and later, newest day first.
    func notifications(since day: LocalDay) async throws -> [StoredNotification]
}

/// What the check pass (`check`, `watch`) reads and writes: the habits, their goals' metrics, the
/// watched files, and the notifications it claims and delivers (what an ingest does, and more).
public typealias CheckPassStore = PerAccountStore & WatchedFileStore

/// What an account's metric ingest (`POST /api/metrics`, `metrics import`) reads and writes: the
/// metrics, the habits whose goals they meet, and the `goal.met` claims made with their entries;
/// with the account's notification channels, it is everything the server reaches per account.
public typealias PerAccountStore = AccountData & MetricImportStore & NotificationStore & NotificationChannelStore
