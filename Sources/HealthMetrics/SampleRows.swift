import Foundation
import MorningProofCore

/// Turns samples into the rows the store keeps, each with the day it counts for.
enum SampleRows {
    /// Cumulative samples count for the day of their start; a night total (no end) for the day of
    /// its start; workouts for the day they start. Asleep intervals are stored with the day they
    /// end, from which the whole night's wake day is found when totals are read (`SleepNights`).
    /// With `pointsAreBuckets`, a cumulative sample without an end is its period's running total
    /// (`MetricSampleRow.isBucket`): Health Auto Export's `{qty, date}`.
    static func add(_ sample: MetricSample, to batch: inout MetricBatch, clock: DayClock, pointsAreBuckets: Bool = false)
    {
        let start = sample.start.timeIntervalSince1970
        let end = sample.end?.timeIntervalSince1970
        switch sample.metric {
        case .sleep:
            if let end {
                batch.intervals.append(
                    MetricIntervalRow(
                        kind: .sleep, source: sample.source, start: start, end: end, minutes: (end - start) / 60,
                        day: clock.day(at: sample.end!)))
            } else {
                batch.intervals.append(
                    MetricIntervalRow(
                        kind: .sleepTotal, source: sample.source, start: start, end: start, minutes: sample.value,
                        day: clock.day(at: sample.start)))
            }
        case .workouts, .workoutMinutes:
            batch.intervals.append(
                MetricIntervalRow(
                    kind: .workout, source: sample.source, start: start, end: end ?? start + sample.value * 60,
                    activity: sample.activity ?? "", minutes: sample.value, day: clock.day(at: sample.start)))
        default:
            batch.samples.append(
                MetricSampleRow(
                    metric: sample.metric.rawValue, source: sample.source, start: start, end: end ?? start,
                    value: sample.value, day: clock.day(at: sample.start), isBucket: pointsAreBuckets && end == nil))
        }
    }
}
