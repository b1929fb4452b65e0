import Foundation
import MorningProofCore

/// One measurement read from a metrics file, in the metric's base unit (steps, minutes, kcal, km).
public struct MetricSample: Sendable, Equatable {
    public var metric: HealthMetric
    /// The amount in `metric.baseUnit`: steps, kcal, km, minutes; for `workouts` the workout's minutes.
    public var value: Double
    public var start: Date
    /// Nil for a sample that is a point in time (or a whole day's total given by date).
    public var end: Date?
    /// The device or app that recorded it (`Alice's Apple Watch`, `iPhone`); `unknown` when absent.
    public var source: String
    /// For workouts: the activity, normalised (`running`, `traditionalstrengthtraining`).
    public var activity: String?

    public init(
        metric: HealthMetric, value: Double, start: Date, end: Date? = nil, source: String, activity: String? = nil
    ) {
        self.metric = metric
        self.value = value
        self.start = start
        self.end = end
        self.source = source
        self.activity = activity
    }

    /// The identity used to count a sample once: metric, source, start, end and value.
    public var dedupKey: String {
        "\(metric.rawValue)|\(source)|\(start.timeIntervalSince1970)|\(end?.timeIntervalSince1970 ?? -1)|\(value)"
    }
}

/// A problem with one record or line: reading goes on with the next.
public struct ReadWarning: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// "line 12" or "byte 1,204".
    public var location: String
    public var message: String

    public init(file: String, location: String, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    public var description: String { "\(file): \(location): \(message)" }
}
