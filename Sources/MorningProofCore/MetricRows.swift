import Foundation

// The rows of health metrics as readers produce them and stores keep them: plain values shared by
// HealthMetrics (which makes them), the stores (which write and read them) and the total rules.

/// One cumulative sample from a sample file, with the day it counts for (the day of its start).
public struct MetricSampleRow: Sendable, Equatable {
    public var metric: String
    public var source: String
    /// Seconds since 1970.
    public var start: Double
    /// Seconds since 1970; equal to `start` for a sample without an end.
    public var end: Double
    public var value: Double
    public var day: LocalDay
    /// A running total of its (metric, source, start, end) period, as Health Auto Export sends a
    /// day's or an hour's steps so far, again and again as they grow: the largest value sent is
    /// the period's, never the sum of the sends. Other samples are single measurements, each
    /// counted once by its whole identity (value included).
    public var isBucket: Bool

    public init(
        metric: String, source: String, start: Double, end: Double, value: Double, day: LocalDay,
        isBucket: Bool = false
    ) {
        self.metric = metric
        self.source = source
        self.start = start
        self.end = end
        self.value = value
        self.day = day
        self.isBucket = isBucket
    }
}

/// A sleep interval, an aggregated night of sleep, or a workout.
public struct MetricIntervalRow: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// An asleep interval (any stage); `day` is the day it ends. Its whole night counts for
        /// the day of the night's last asleep instant (`SleepNights`).
        case sleep
        /// A night summarised as a total (Health Auto Export); `minutes` asleep, `day` the wake day.
        case sleepTotal
        /// A workout; counts for the day it starts.
        case workout
    }
    public var kind: Kind
    public var source: String
    public var start: Double
    public var end: Double
    /// The workout's activity (`running`), empty otherwise.
    public var activity: String
    public var minutes: Double
    public var day: LocalDay

    public init(
        kind: Kind, source: String, start: Double, end: Double, activity: String = "", minutes: Double, day: LocalDay
    ) {
        self.kind = kind
        self.source = source
        self.start = start
        self.end = end
        self.activity = activity
        self.minutes = minutes
        self.day = day
    }
}

/// The total of one cumulative metric for one source and day, as a whole Apple Health export gave it.
public struct MetricAggregateRow: Sendable, Equatable {
    public var metric: String
    public var day: LocalDay
    public var source: String
    public var value: Double
    /// The number of records summed.
    public var count: Int

    public init(metric: String, day: LocalDay, source: String, value: Double, count: Int) {
        self.metric = metric
        self.day = day
        self.source = source
        self.value = value
        self.count = count
    }
}

/// What one read of a file (or one part of it) produced, written in one transaction.
public struct MetricBatch: Sendable {
    public var samples: [MetricSampleRow] = []
    public var intervals: [MetricIntervalRow] = []
    /// Per-day totals of a whole export: each replaces the stored export total of its
    /// (metric, day, source) when `exportComplete`, and only raises it otherwise.
    public var exportAggregates: [MetricAggregateRow] = []
    /// The export's own date (seconds since 1970): an older export never replaces a newer one's days.
    public var exportDate: Double?
    /// False for an export cut short (still being written): its days may be partial.
    public var exportComplete = true

    public init() {}

    public var isEmpty: Bool { samples.isEmpty && intervals.isEmpty && exportAggregates.isEmpty }
}

/// What storing a batch changed.
public struct MetricWriteOutcome: Sendable, Equatable {
    /// Samples and intervals stored for the first time, and export records counted.
    public var recordsStored = 0
    /// Samples or intervals already stored, and export records whose day total was already known.
    public var duplicatesSkipped = 0
    /// Days whose totals may have changed.
    public var daysTouched: Set<LocalDay> = []

    public init() {}
}

/// What was last read of one metrics file: enough to skip it unchanged, or resume where it ended.
public struct WatchedFileState: Sendable, Equatable {
    public var path: String
    public var size: Int64
    /// Modification time, seconds since 1970.
    public var mtime: Double
    public var inode: UInt64
    /// A hash of the file's first bytes: a file rewritten in place (not appended to) changes it.
    public var headFingerprint: String
    /// Bytes read so far that ended with a complete line or record.
    public var resumeOffset: Int64
    /// Lines before `resumeOffset`, so that warnings keep true line numbers after a resume.
    public var resumeLine: Int
    /// False when the file ended in the middle of a record (being written): read again when it changes.
    public var complete: Bool
    /// The format it was read as (`appleHealthXML`, `csv`, ...).
    public var format: String
    public var readAt: Date

    public init(
        path: String, size: Int64, mtime: Double, inode: UInt64, headFingerprint: String, resumeOffset: Int64,
        resumeLine: Int, complete: Bool, format: String, readAt: Date
    ) {
        self.path = path
        self.size = size
        self.mtime = mtime
        self.inode = inode
        self.headFingerprint = headFingerprint
        self.resumeOffset = resumeOffset
        self.resumeLine = resumeLine
        self.complete = complete
        self.format = format
        self.readAt = readAt
    }
}

/// Workout activity names: `HKWorkoutActivityTypeRunning`, `Outdoor Run` and `running` all match `running`.
public enum ActivityNames {
    /// A stored activity name: lowercase letters only, without Apple's `HKWorkoutActivityType` prefix.
    public static func normalized(_ name: String) -> String {
        var text = name
        if text.hasPrefix("HKWorkoutActivityType") { text.removeFirst("HKWorkoutActivityType".count) }
        return String(text.lowercased().filter { $0.isLetter })
    }

    /// True when `activity` is the kind `filter` names: `running` matches `outdoorrun`, `cycling` `indoorcycle`.
    public static func matches(_ activity: String, filter: String) -> Bool {
        let wanted = normalized(filter)
        guard !wanted.isEmpty else { return true }
        let name = normalized(activity)
        if name.contains(wanted) { return true }
        var stem = wanted
        for suffix in ["ning", "ing", "s"] where stem.hasSuffix(suffix) && stem.count > suffix.count + 2 {
            stem.removeLast(suffix.count)
            break
        }
        return name.contains(stem)
    }
}
