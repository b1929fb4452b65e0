import Foundation
import MorningProofCore
import MorningProofStoreContract

/// The day totals that `metrics show --json` prints and `GET /api/metrics` answers:
/// `{"days": [{"day": "2026-03-08", "steps": 8412, "sleepMinutes": 431, ...}]}`, one row per day
/// of the range, a metric without data on a day left out.
public struct MetricDaysJSON: Encodable, Sendable {
    /// The metrics shown, in display order, with their text header and their rounding.
    public static let columns: [(metric: HealthMetric, header: String, decimals: Int)] = [
        (.steps, "steps", 0), (.sleep, "sleep", 0), (.workouts, "workouts", 0), (.workoutMinutes, "workout min", 1),
        (.activeEnergy, "active kcal", 0), (.distance, "km", 2), (.exerciseMinutes, "exercise min", 0),
        (.mindfulMinutes, "mindful min", 0),
    ]

    /// The most days one request shows (`metrics show --days`, `GET /api/metrics?from=&to=`).
    public static let maxDays = 3660

    public let days: [MetricDayJSON]

    /// The rows of `first` through `last` from the store's day totals (`MetricImportStore.metricDays`).
    public init(_ values: [LocalDay: [String: Double]], from first: LocalDay, to last: LocalDay) {
        days = first.through(last).map { day in
            MetricDayJSON(
                day: day,
                values: Self.columns.compactMap { column in
                    values[day]?[column.metric.rawValue].map {
                        (column.metric.jsonKey, Self.rounded($0, column.decimals))
                    }
                })
        }
    }

    /// The day totals of `first` through `last` of `store`: a usage error (64, 400) when `last` is
    /// before `first` or the range is over `maxDays` days. The rows are read first, and the rules
    /// run on them on `cpu` when given (the server's pool), so the database waits for no rule.
    public static func read(
        from first: LocalDay, to last: LocalDay, in store: any MetricImportStore, cpu: (any CPUWork)? = nil
    ) async throws -> MetricDaysJSON {
        guard first <= last else {
            throw MorningProofError.usage("the range ends (\(last)) before it starts (\(first))")
        }
        guard first.days(to: last) < maxDays else {
            throw MorningProofError.usage("the range is over \(maxDays) days; ask for fewer")
        }
        let rows = try await store.metricRows(from: first, to: last)
        let values: [LocalDay: [String: Double]]
        if let cpu { values = try await cpu.run { try rows.days() } } else { values = try rows.days() }
        return MetricDaysJSON(values, from: first, to: last)
    }

    /// `value` rounded to `decimals` places, as shown.
    public static func rounded(_ value: Double, _ decimals: Int) -> Double {
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
    }
}

/// One day's row: its day and the metrics it has data for, whole numbers written without a fraction.
public struct MetricDayJSON: Encodable, Sendable {
    public let day: LocalDay
    /// JSON key and rounded value, in display order.
    public let values: [(key: String, value: Double)]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(day.description, forKey: Key("day"))
        for (key, value) in values {
            if value == value.rounded(), abs(value) < 1e15 {
                try container.encode(Int(value), forKey: Key(key))
            } else {
                try container.encode(value, forKey: Key(key))
            }
        }
    }
}
