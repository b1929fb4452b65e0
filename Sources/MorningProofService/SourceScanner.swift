import Foundation
import HealthMetrics
import MorningProofCore
import MorningProofStoreContract

/// What one pass over the watched sources did.
public struct ScanReport: Sendable {
    /// Files read (changed since the last pass, or new).
    public var filesRead = 0
    /// Files skipped because nothing about them changed.
    public var filesUnchanged = 0
    public var recordsRead = 0
    public var duplicatesSkipped = 0
    /// Days whose totals may have changed: the days to judge goals for again.
    public var daysTouched: Set<LocalDay> = []
    /// Missing files, files that are not metrics files, bad records: never thrown.
    public var warnings: [String] = []
    /// One report per file read.
    public var files: [FileReport] = []

    public init() {}
}

/// Reads every watched source that changed: a file, or each recognised file of a folder.
///
/// Per file it remembers size, modification time, inode and a fingerprint of its first bytes.
/// An unchanged file is skipped without being read. A CSV or JSON Lines file that only grew (same
/// inode, same head) is read from the end of its last complete line; any other change re-reads the
/// whole file, and the store's dedup keys (samples) or day totals that a newer export replaces
/// (Apple Health) keep anything from counting twice.
public struct SourceScanner {
    let database: any WatchedFileStore & MetricImportStore
    let clock: DayClock

    /// The format recorded for a file in a watched folder that is not a metrics file.
    static let notMetrics = "notMetrics"

    public init(database: any WatchedFileStore & MetricImportStore, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// Watches `path` (absolute), a metrics file or a folder of them, which must exist now; false when
    /// it was already watched.
    public func addSource(_ path: String, now: Date) async throws -> Bool {
        try Self.checkSource(path)
        return try await database.addMetricSource(path, at: now)
    }

    /// Checks that `path` can be watched: it exists, and is a folder or a metrics file.
    public static func checkSource(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MorningProofError.noInput("\(path): no such file or folder")
        }
        if !isDirectory.boolValue, try MetricFileFormat.detect(path: path) == nil {
            throw MorningProofError.dataError(
                "\(path): not a metrics file (Apple Health export, Health Auto Export JSON, CSV or JSON Lines)")
        }
    }

    /// Stops watching `path` (as added); the totals already read stay.
    public func removeSource(_ path: String) async throws {
        guard try await database.removeMetricSource(path) else {
            throw MorningProofError.usage("\(path) is not watched\(hint: .listSources)")
        }
    }

    /// One pass. Only a failing database throws; a bad or missing file is a warning.
    public func scanChangedSources(progress: (@Sendable (String, Int64, Int64) -> Void)? = nil) async throws -> ScanReport {
        var report = ScanReport()
        let known = try await database.watchedFiles()
        var importer = MetricImporter(database: database, clock: clock)
        importer.progress = progress
        for source in try await database.metricSources() {
            let identity: FileIdentity
            do {
                identity = try FileIdentity.of(source)
            } catch let error as MetricFileError {
                report.warnings.append(error.message)
                continue
            }
            let files: [String]
            if identity.isDirectory {
                files = Self.filesInFolder(source)
            } else {
                files = [source]
            }
            for file in files {
                try await scan(file, inFolder: identity.isDirectory, known: known[file], importer: importer, into: &report)
            }
        }
        return report
    }

    private func scan(
        _ path: String, inFolder: Bool, known: WatchedFileState?, importer: MetricImporter,
        into report: inout ScanReport
    ) async throws {
        do {
            let identity = try FileIdentity.of(path)
            if let known, identity.isUnchanged(since: known) {
                report.filesUnchanged += 1
                return
            }
            guard let format = try MetricFileFormat.detect(path: path) else {
                // In a folder, other files are simply not ours (remembered, so not sniffed again
                // until they change); a file watched by name must be one.
                if inFolder {
                    try await StoreFailure.wrap {
                        try await database.saveWatchedFile(
                            WatchedFileState(
                                path: path, size: identity.size, mtime: identity.mtime, inode: identity.inode,
                                headFingerprint: "", resumeOffset: 0, resumeLine: 0, complete: true,
                                format: Self.notMetrics, readAt: Date()))
                    }
                } else {
                    report.warnings.append("\(path): not a metrics file; skipped")
                }
                return
            }
            let file = try await importer.read(
                path, format: format, identity: identity, resume: resumePoint(path, format, identity, known),
                watched: true)
            report.filesRead += 1
            report.recordsRead += file.recordsRead
            report.duplicatesSkipped += file.duplicatesSkipped
            report.daysTouched.formUnion(file.daysTouched)
            report.warnings += file.warnings.map(\.description)
            if file.warningCount > file.warnings.count {
                report.warnings.append("\(path): \(file.warningCount - file.warnings.count) more warnings")
            }
            report.files.append(file)
        } catch let failure as StoreFailure {
            throw failure.error
        } catch let error as MetricFileError {
            report.warnings.append(error.message)
        } catch let error as MorningProofError {
            report.warnings.append(error.message)
        } catch {
            report.warnings.append("\(path): \(error)")
        }
    }

    /// Where an appended CSV or JSON Lines file continues: only when it is the same file (inode),
    /// it did not shrink, and its first bytes are those read before.
    func resumePoint(_ path: String, _ format: MetricFileFormat, _ identity: FileIdentity, _ known: WatchedFileState?)
        -> (offset: Int64, line: Int)?
    {
        guard let known, format.isLineBased, known.format == format.rawValue, known.inode == identity.inode,
            identity.size >= known.resumeOffset, identity.size >= known.size
        else { return nil }
        let covered = Int(min(known.size, Int64(FileIdentity.headLength)))
        guard FileIdentity.fingerprint(path, length: covered) == known.headFingerprint else { return nil }
        return (known.resumeOffset, known.resumeLine)
    }

    /// Regular files in a folder (and its subfolders, not hidden ones), sorted by name.
    static func filesInFolder(_ folder: String) -> [String] {
        let url = URL(fileURLWithPath: folder)
        guard
            let enumerator = FileManager.default.enumerator(
                at: url, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [String] = []
        for case let file as URL in enumerator {
            if file.pathComponents.contains("__MACOSX") { continue }
            if (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(file.path)
            }
        }
        return files.sorted()
    }
}
