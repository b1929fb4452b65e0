import Foundation
import MorningProofCore

/// What an Apple Health export holds for our metrics, summed per (metric, source, day) as it is
/// read: the memory it takes grows with days and sources, never with the file's size.
struct ExportTotals {
    struct Key: Hashable {
        var metric: UInt8
        var source: Int32
        var day: Int32
    }

    var clock: FastDayClock
    var sums: [Key: (value: Double, count: Int)] = [:]
    var intervals: [MetricIntervalRow] = []
    var sources: [String] = []
    var recordsRead = 0
    var exportDate: Double?
    /// When set, every sample is also kept (tests and small files).
    var samples: [MetricSample]?

    static let metrics = HealthMetric.allCases

    /// The position of a metric in `metrics`, without building an array.
    @inline(__always)
    static func index(_ metric: HealthMetric) -> UInt8 {
        switch metric {
        case .steps: 0
        case .sleep: 1
        case .workouts: 2
        case .workoutMinutes: 3
        case .activeEnergy: 4
        case .distance: 5
        case .exerciseMinutes: 6
        case .mindfulMinutes: 7
        }
    }

    /// The sum being built for the last key: an export lists a type's records in date order, so
    /// most records add to the same (metric, source, day) as the one before, without hashing.
    private var runKey = Key(metric: .max, source: -1, day: 0)
    private var runValue = 0.0
    private var runCount = 0

    private mutating func addToRun(_ key: Key, _ value: Double) {
        if key != runKey {
            flushRun()
            runKey = key
        }
        runValue += value
        runCount += 1
    }

    mutating func flushRun() {
        guard runCount > 0 else { return }
        sums[runKey, default: (0, 0)].value += runValue
        sums[runKey, default: (0, 0)].count += runCount
        runValue = 0
        runCount = 0
    }

    init(clock: DayClock, keepSamples: Bool = false) {
        self.clock = FastDayClock(clock)
        samples = keepSamples ? [] : nil
    }

    /// A cumulative quantity (steps, energy, distance, exercise or mindful minutes) starting at `start`.
    mutating func add(_ metric: HealthMetric, source: Int32, start: Double, end: Double, value: Double) {
        recordsRead += 1
        let day = Int32(clock.dayNumber(at: start))
        addToRun(Key(metric: Self.index(metric), source: source, day: day), value)
        if samples != nil {
            let kept = sample(metric, source: source, start: start, end: end, value: value)
            samples!.append(kept)
        }
    }

    /// A whole day's amount given by date (`ActivitySummary`).
    mutating func add(_ metric: HealthMetric, source: Int32, day: LocalDay, value: Double) {
        recordsRead += 1
        addToRun(Key(metric: Self.index(metric), source: source, day: Int32(day.dayNumber)), value)
        let start = clock.clock.start(of: day).timeIntervalSince1970
        if samples != nil {
            let kept = sample(metric, source: source, start: start, end: nil, value: value)
            samples!.append(kept)
        }
    }

    /// An asleep interval, stored with the day it ends; its night's wake day is found when read.
    mutating func addSleep(source: Int32, start: Double, end: Double) {
        recordsRead += 1
        intervals.append(
            MetricIntervalRow(
                kind: .sleep, source: sources[Int(source)], start: start, end: end, minutes: (end - start) / 60,
                day: clock.day(at: end)))
        if samples != nil {
            let kept = sample(.sleep, source: source, start: start, end: end, value: (end - start) / 60)
            samples!.append(kept)
        }
    }

    /// A workout: counts for the day it starts.
    mutating func addWorkout(source: Int32, start: Double, end: Double, minutes: Double, activity: String) {
        recordsRead += 1
        intervals.append(
            MetricIntervalRow(
                kind: .workout, source: sources[Int(source)], start: start, end: end, activity: activity,
                minutes: minutes, day: clock.day(at: start)))
        if samples != nil {
            var workout = sample(.workouts, source: source, start: start, end: end, value: minutes)
            workout.activity = activity
            samples!.append(workout)
        }
    }

    private func sample(_ metric: HealthMetric, source: Int32, start: Double, end: Double?, value: Double)
        -> MetricSample
    {
        MetricSample(
            metric: metric, value: value, start: Date(timeIntervalSince1970: start),
            end: end.map { Date(timeIntervalSince1970: $0) }, source: sources[Int(source)])
    }

    /// The batch to store: per-day totals that replace an older export's, and the intervals.
    mutating func batch(complete: Bool) -> MetricBatch {
        flushRun()
        var batch = MetricBatch()
        batch.exportAggregates = sums.map { key, sum in
            MetricAggregateRow(
                metric: Self.metrics[Int(key.metric)].rawValue, day: LocalDay(dayNumber: Int(key.day)),
                source: sources[Int(key.source)], value: sum.value, count: sum.count)
        }.sorted { ($0.day, $0.metric, $0.source) < ($1.day, $1.metric, $1.source) }
        batch.intervals = intervals
        batch.exportDate = exportDate
        batch.exportComplete = complete
        return batch
    }
}
