import Foundation
import MorningProofCore
import MorningProofStore

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

    init(path: String, format: MetricFileFormat) {
        self.path = path
        self.format = format
    }
}

/// Reads metrics files into the store: detects the format by content, reads, and stores each
/// batch in one transaction, so an error never leaves half a batch counted.
public struct MetricImporter {
    let database: AppDatabase
    let clock: DayClock
    /// Called with (path, bytes read, total bytes) while a large file is read.
    public var progress: (@Sendable (String, Int64, Int64) -> Void)?

    /// Samples stored per transaction when reading line by line.
    static let batchSize = 20_000

    public init(database: AppDatabase, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// Reads a whole file (`metrics import`). Throws noInput (66) when it is missing and
    /// dataError (65) when it is not a metrics file; bad records are warnings in the report.
    public func importFile(_ path: String) throws -> FileReport {
        let identity = try FileIdentity.of(path)
        if identity.isDirectory { throw MorningProofError.dataError("\(path) is a folder, not a metrics file") }
        guard let format = try MetricFileFormat.detect(path: path) else {
            throw MorningProofError.dataError(
                "\(path): not a metrics file (expected an Apple Health export.xml or export.zip, Health Auto Export JSON, CSV with date,metric,value or JSON Lines)"
            )
        }
        do {
            return try read(path, format: format, identity: identity, resume: nil, watched: false)
        } catch let failure as StoreFailure {
            throw failure.error
        }
    }

    /// Reads a file as a watched source: from `resume` (offset, line) for appended lines, else whole,
    /// recording what was read so that an unchanged file is skipped next time.
    func read(
        _ path: String, format: MetricFileFormat, identity: FileIdentity, resume: (offset: Int64, line: Int)?,
        watched: Bool
    ) throws -> FileReport {
        var report = try readRecords(path, format: format, identity: identity, resume: resume, watched: watched)
        // Each record was plausible; a source's day total may still be above the ceiling.
        let above = try StoreFailure.wrap { try database.metricTotalsAboveCeiling(on: report.daysTouched) }
        for total in above {
            report.warningCount += 1
            if report.warnings.count < 50 {
                report.warnings.append(
                    ReadWarning(
                        file: path, location: "day \(total.day)",
                        message:
                            "\(total.source)'s \(total.metric.rawValue) total of \(HealthMetric.format(total.value)) is above the ceiling of \(HealthMetric.format(total.metric.maximumPerDay)) \(total.metric.baseUnit) a day: not counted"
                    ))
            }
        }
        return report
    }

    private func readRecords(
        _ path: String, format: MetricFileFormat, identity: FileIdentity, resume: (offset: Int64, line: Int)?,
        watched: Bool
    ) throws -> FileReport {
        let head = FileIdentity.fingerprint(path, length: Int(min(identity.size, Int64(FileIdentity.headLength)))) ?? ""
        var state =
            watched
            ? WatchedFileState(
                path: path, size: identity.size, mtime: identity.mtime, inode: identity.inode, headFingerprint: head,
                resumeOffset: identity.size, resumeLine: 0, complete: true, format: format.rawValue, readAt: Date())
            : nil
        switch format {
        case .appleHealthXML, .appleHealthZip:
            var reporter: (@Sendable (Int64, Int64) -> Void)?
            if let progress { reporter = { @Sendable done, total in progress(path, done, total) } }
            let reader = AppleHealthReader(clock: clock, progress: reporter)
            let export = format == .appleHealthXML ? try reader.readXML(path: path) : try reader.readZip(path: path)
            state?.complete = export.complete
            let outcome = try StoreFailure.wrap { try database.storeMetrics(export.batch, file: state) }
            var report = FileReport(path: path, format: format)
            report.recordsRead = export.recordsRead
            report.duplicatesSkipped = min(outcome.duplicatesSkipped, export.recordsRead)
            report.daysTouched = outcome.daysTouched
            report.warnings = export.warnings
            report.warningCount = export.warningCount
            report.complete = export.complete
            return report
        case .healthAutoExport:
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
            } catch {
                throw MorningProofError.ioError("\(path): \(error.localizedDescription)")
            }
            let (samples, warnings) = try HealthAutoExportReader(clock: clock).read(data, file: path)
            var batch = MetricBatch()
            for sample in samples { SampleRows.add(sample, to: &batch, clock: clock) }
            let outcome = try StoreFailure.wrap { try database.storeMetrics(batch, file: state) }
            var report = FileReport(path: path, format: format)
            report.recordsRead = samples.count
            report.duplicatesSkipped = outcome.duplicatesSkipped
            report.daysTouched = outcome.daysTouched
            report.warnings = Array(warnings.prefix(50))
            report.warningCount = warnings.count
            return report
        case .csv, .jsonLines:
            return try LineFileReader(
                path: path, format: format, clock: clock, database: database, identity: identity, state: state,
                progress: progress
            ).read(from: resume ?? (0, 0), acceptUnterminatedLine: !watched)
        }
    }
}

/// A failure of the database (not of the file being read): the one error a scan passes on.
struct StoreFailure: Error {
    let error: Error

    static func wrap<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw StoreFailure(error: error)
        }
    }
}
