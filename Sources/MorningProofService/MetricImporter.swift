import Foundation
import HealthMetrics
import MorningProofCore
import MorningProofStoreContract

/// Reads metrics files into the store: detects the format by content, reads, and stores each
/// batch in one transaction, so an error never leaves half a batch counted. Every reader runs on
/// the CPU pool when there is one.
public struct MetricImporter {
    let database: any MetricImportStore
    let clock: DayClock
    /// Called with (path, bytes read, total bytes) while a large file is read.
    public var progress: (@Sendable (String, Int64, Int64) -> Void)?
    /// Where the reading runs (a whole Apple export or Health Auto Export file, a CSV or JSON Lines
    /// file a chunk at a time); nil: on the caller's task.
    public var cpu: (any CPUWork)?
    /// The store of an upload (`POST /api/metrics`): a CSV or JSON Lines file is then stored in one
    /// transaction, as the other formats are (all or nothing), its batches kept on disk beside it
    /// until then (`MetricSpool`), so that memory stays flat with its size (issue 38). Nil (`metrics
    /// import`, watched files): stored 20,000 samples at a time, each batch with its resume point:
    /// memory stays bounded for a file of gigabytes, and a file read again skips what was stored.
    public var upload: (any MetricUploadStore)?

    public init(database: any MetricImportStore, clock: DayClock, cpu: (any CPUWork)? = nil) {
        self.database = database
        self.clock = clock
        self.cpu = cpu
    }

    /// `body` on the CPU pool when there is one.
    private func offload<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        guard let cpu else { return try body() }
        return try await cpu.run(body)
    }

    /// Checks that `path` (shown as `given`) is a metrics file that can be imported, before anything is
    /// read: noInput (66) when it is missing, dataError (65) when it is a folder or not a metrics file.
    public static func checkImportable(_ path: String, shownAs given: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MorningProofError.noInput("\(given): no such file")
        }
        guard !isDirectory.boolValue, try MetricFileFormat.detect(path: path) != nil else {
            throw MorningProofError.dataError(
                "\(given): not a metrics file (expected an Apple Health export.xml or export.zip, Health Auto Export JSON, CSV with date,metric,value or JSON Lines)"
            )
        }
    }

    /// Reads a whole file (`metrics import`). Throws noInput (66) when it is missing and
    /// dataError (65) when it is not a metrics file; bad records are warnings in the report.
    /// With `format`, the file must be of that format (a body whose Content-Type named it): else
    /// dataError (65), naming what it is instead. Messages and warnings name the file as `shownAs`
    /// (default: its path; a body the server received is "the body").
    public func importFile(_ path: String, as expected: MetricFileFormat? = nil, shownAs name: String? = nil)
        async throws -> FileReport
    {
        let name = name ?? path
        let identity = try FileIdentity.of(path, shownAs: name)
        if identity.isDirectory { throw MorningProofError.dataError("\(name) is a folder, not a metrics file") }
        guard let format = try MetricFileFormat.detect(path: path) else {
            throw MorningProofError.dataError(
                "\(name): not a metrics file (expected an Apple Health export.xml or export.zip, Health Auto Export JSON, CSV with date,metric,value or JSON Lines)"
            )
        }
        if let expected, !expected.accepts(format) {
            throw MorningProofError.dataError(
                "\(name): not \(expected.displayName) but \(format.displayName)")
        }
        do {
            return try await read(
                path, shownAs: name, format: format, identity: identity, resume: nil, watched: false)
        } catch let failure as StoreFailure {
            throw failure.error
        }
    }

    /// Reads a file as a watched source: from `resume` (offset, line) for appended lines, else whole,
    /// recording what was read so that an unchanged file is skipped next time. Warnings name the
    /// file as `shownAs` (default: its path).
    func read(
        _ path: String, shownAs name: String? = nil, format: MetricFileFormat, identity: FileIdentity,
        resume: (offset: Int64, line: Int)?, watched: Bool
    ) async throws -> FileReport {
        let name = name ?? path
        var report = try await readRecords(
            path, shownAs: name, format: format, identity: identity, resume: resume, watched: watched)
        // Each record was plausible; a source's day total may still be above the ceiling.
        let above = try await StoreFailure.wrap { try await database.metricTotalsAboveCeiling(on: report.daysTouched) }
        for (metric, total) in above {
            report.warningCount += 1
            if report.warnings.count < 50 {
                report.warnings.append(
                    ReadWarning(
                        file: name, location: "day \(total.day)",
                        message:
                            "\(total.source)'s \(metric.rawValue) total of \(HealthMetric.format(total.value)) is above the ceiling of \(HealthMetric.format(metric.maximumPerDay)) \(metric.baseUnit) a day: not counted"
                    ))
            }
        }
        return report
    }

    private func readRecords(
        _ path: String, shownAs name: String, format: MetricFileFormat, identity: FileIdentity,
        resume: (offset: Int64, line: Int)?, watched: Bool
    ) async throws -> FileReport {
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
            let export = try await offload {
                format == .appleHealthXML
                    ? try reader.readXML(path: path, shownAs: name) : try reader.readZip(path: path, shownAs: name)
            }
            state?.complete = export.complete
            let outcome = try await storeWhole(export.batch, file: state)
            var report = FileReport(path: path, format: format)
            report.recordsRead = export.recordsRead
            report.duplicatesSkipped = min(outcome.duplicatesSkipped, export.recordsRead)
            report.daysTouched = outcome.daysTouched
            report.warnings = export.warnings
            report.warningCount = export.warningCount
            report.complete = export.complete
            return report
        case .healthAutoExport:
            let clock = clock
            let (batch, recordsRead, warnings, warningCount) = try await offload {
                try HealthAutoExportReader(clock: clock).readFile(path, shownAs: name)
            }
            let outcome = try await storeWhole(batch, file: state)
            var report = FileReport(path: path, format: format)
            report.recordsRead = recordsRead
            report.duplicatesSkipped = outcome.duplicatesSkipped
            report.daysTouched = outcome.daysTouched
            report.warnings = warnings
            report.warningCount = warningCount
            return report
        case .csv, .jsonLines:
            if let upload {
                return try await readUpload(path, shownAs: name, format: format, identity: identity, into: upload)
            }
            var reader = LineFileReader(
                path: path, format: format, clock: clock, identity: identity, state: state, progress: progress,
                shownAs: name
            ) { batch, file in
                try await StoreFailure.wrap { try await database.storeMetrics(batch, file: file) }
            }
            if let cpu { reader.parse = { chunk in try await cpu.run(chunk) } }
            return try await reader.read(from: resume ?? (0, 0), acceptUnterminatedLine: !watched)
        }
    }
}

extension MetricImporter {
    /// A CSV or JSON Lines upload, whole: read a batch at a time into a spool beside it, then stored
    /// from the spool in one transaction (all or nothing), one batch in memory at a time.
    fileprivate func readUpload(
        _ path: String, shownAs name: String, format: MetricFileFormat, identity: FileIdentity,
        into upload: any MetricUploadStore
    ) async throws -> FileReport {
        let spool = try MetricSpool(beside: path, shownAs: name)
        defer { spool.remove() }
        var reader = LineFileReader(
            path: path, format: format, clock: clock, identity: identity, state: nil, progress: progress, shownAs: name
        ) { batch, _ in
            try spool.append(batch)
            return MetricWriteOutcome()
        }
        if let cpu { reader.parse = { chunk in try await cpu.run(chunk) } }
        var report = try await reader.read(from: (0, 0), acceptUnterminatedLine: true)
        try spool.rewind()
        let outcome = try await StoreFailure.wrap { try await upload.storeMetrics(batches: { try spool.next() }) }
        report.duplicatesSkipped = outcome.duplicatesSkipped
        report.daysTouched = outcome.daysTouched
        return report
    }
}

extension MetricImporter {
    /// A whole file's batch (an Apple export, Health Auto Export JSON): through the upload's store
    /// when there is one (all or nothing, staged a chunk at a time: issue 38), else in one
    /// transaction with what was read of the file.
    fileprivate func storeWhole(_ batch: MetricBatch, file: WatchedFileState?) async throws -> MetricWriteOutcome {
        try await StoreFailure.wrap {
            guard let upload, file == nil else { return try await database.storeMetrics(batch, file: file) }
            let once = OneBatch(batch)
            return try await upload.storeMetrics(batches: { once.take() })
        }
    }
}

/// One batch, given once: the batches of a file read whole.
private final class OneBatch: @unchecked Sendable {
    private var batch: MetricBatch?
    private let lock = NSLock()

    init(_ batch: MetricBatch) { self.batch = batch }

    func take() -> MetricBatch? {
        lock.lock()
        defer { lock.unlock() }
        defer { batch = nil }
        return batch
    }
}

/// A failure of the database (not of the file being read): the one error a scan passes on.
struct StoreFailure: Error {
    let error: Error

    static func wrap<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw StoreFailure(error: error)
        }
    }
}
