import MorningProofCore

/// What reading one file did.
public struct FileReport: Sendable {
    public var path: String
    public var format: MetricFileFormat
    /// Records (samples, intervals, workouts) read from the file, duplicates included.
    public var recordsRead = 0
    /// Records that were already stored (a re-read, an overlapping file) and so not counted again.
    public var duplicatesSkipped = 0
    public var daysTouched: Set<LocalDay> = []
    /// The first warnings (at most 50 kept); `warningCount` has them all.
    public var warnings: [ReadWarning] = []
    public var warningCount = 0
    /// False when the file ended inside a record (being written): the rest is read when it changes.
    public var complete = true

    public init(path: String, format: MetricFileFormat) {
        self.path = path
        self.format = format
    }
}
