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
    /// Every row the day totals of `from` through `to` are computed from, with the account's source
    /// priority, read in one snapshot; `MetricRowSnapshot.days()` gives what `metricDays` answers,
    /// away from the database (on the server's CPU pool). Rows of other days are not read.
    func metricRows(from: LocalDay, to: LocalDay) async throws -> MetricRowSnapshot
}

extension MetricStore {
    public func metricValue(metric: String, day: LocalDay, activity: String? = nil) async throws -> Double? {
        try await metricValues(metric: metric, from: day, to: day, activity: activity)[day]
    }
}

extension HealthMetric {
    /// The metric a habit's goal names: its raw name, or a name a person types; an unknown one is
    /// not found (both engines' `metricValues`).
    public static func named(_ metric: String) throws -> HealthMetric {
        guard let kind = HealthMetric(rawValue: metric) ?? HealthMetric(name: metric) else {
            throw StoreError(.notFound, value: metric, "unknown metric \"\(metric)\"")
        }
        return kind
    }
}
