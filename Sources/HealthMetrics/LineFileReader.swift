import Foundation
import MorningProofCore

/// Reads a CSV or JSON Lines file line by line from an offset, handing samples to `store` in
/// batches of `batchSize`, each with the offset after its last complete line, so that an appended
/// file resumes there. Each chunk of the file is parsed inside `parse` (a CPU pool's run), the
/// stores run on the caller's task.
public struct LineFileReader {
    let path: String
    /// What messages and warnings call the file: its path, or a label ("the body").
    let name: String
    let format: MetricFileFormat
    let clock: DayClock
    let identity: FileIdentity
    /// What was read of the file so far, for a watched file: stored with each batch.
    var state: WatchedFileState?
    let progress: (@Sendable (String, Int64, Int64) -> Void)?
    /// Stores one batch with the file's state (in one transaction); its errors pass through unchanged.
    let store: (MetricBatch, WatchedFileState?) async throws -> MetricWriteOutcome
    /// Samples handed to `store` at once; `Int.max` stores the whole file in one batch (an upload,
    /// all or nothing).
    public var batchSize = Self.batchSize
    /// Runs a chunk's parsing (on a CPU pool); by default on the caller's task.
    public var parse: (@escaping @Sendable () throws -> Void) async throws -> Void = { try $0() }

    /// Samples handed to `store` at once, by default.
    public static let batchSize = 20_000

    public init(
        path: String, format: MetricFileFormat, clock: DayClock, identity: FileIdentity, state: WatchedFileState?,
        progress: (@Sendable (String, Int64, Int64) -> Void)?, shownAs name: String? = nil,
        store: @escaping (MetricBatch, WatchedFileState?) async throws -> MetricWriteOutcome
    ) {
        self.path = path
        self.name = name ?? path
        self.format = format
        self.clock = clock
        self.identity = identity
        self.state = state
        self.progress = progress
        self.store = store
    }

    /// Reads from `start`; a last line without a newline is read only when `acceptUnterminatedLine`
    /// (an explicit import), else it waits, uncounted, for the writer to finish it.
    public func read(from start: (offset: Int64, line: Int), acceptUnterminatedLine: Bool) async throws -> FileReport {
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw MetricFileError.cannotOpen(name, errno: errno, "\(name): cannot open")
        }
        defer { try? file.close() }
        var header: CSVHeader?
        var offset = start.offset
        var lineNumber = start.line
        if format == .csv {
            let headLine = try Self.firstLine(file)
            guard let parsed = CSVHeader(line: headLine.text) else {
                throw MetricFileError(
                    .notMetrics, path: name, "\(name): line 1: not a metrics CSV header (date,metric,value)")
            }
            header = parsed
            if offset < headLine.length {
                offset = headLine.length
                lineNumber = 1
            }
        }
        try file.seek(toOffset: UInt64(offset))
        let scan = LineScan(
            file: file, name: name, header: header, clock: clock, offset: offset, line: lineNumber,
            report: FileReport(path: path, format: format))
        var lastReport: Int64 = 0

        func flush(complete: Bool) async throws {
            var read = state
            read?.resumeOffset = scan.offset
            read?.resumeLine = scan.lineNumber
            read?.complete = complete
            guard !scan.batch.isEmpty || read != nil else { return }
            let outcome = try await store(scan.batch, read)
            scan.report.duplicatesSkipped += outcome.duplicatesSkipped
            scan.report.daysTouched.formUnion(outcome.daysTouched)
            scan.batch = MetricBatch()
        }

        while true {
            try await parse { try scan.readChunk() }
            if scan.ended { break }
            if scan.batch.samples.count + scan.batch.intervals.count >= batchSize { try await flush(complete: false) }
            if let progress, scan.offset - lastReport >= 8 << 20 {
                progress(path, scan.offset, identity.size)
                lastReport = scan.offset
            }
        }
        var complete = true
        if !scan.pending.isEmpty {
            if acceptUnterminatedLine {
                scan.take(scan.pending, length: scan.pending.count)
            } else {
                complete = false  // being written: read again, from here, when it changes
            }
        }
        try await flush(complete: complete)
        scan.report.complete = complete
        progress?(path, scan.offset, identity.size)
        return scan.report
    }

    /// The first line of the file (without its newline) and its length with the newline.
    static func firstLine(_ handle: FileHandle) throws -> (text: String, length: Int64) {
        try handle.seek(toOffset: 0)
        var data = Data()
        // A line longer than a header can be is cut there: `CSVHeader` refuses it.
        while data.count <= CSVHeader.maxLength, let chunk = try handle.read(upToCount: 4096), !chunk.isEmpty {
            let searched = data.count
            data.append(chunk)
            if let newline = data[searched...].firstIndex(of: 0x0A) {
                var text = String(decoding: data[..<newline], as: UTF8.self)
                if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
                return (text, Int64(newline + 1))
            }
        }
        return (String(decoding: data, as: UTF8.self), Int64(data.count))
    }
}

/// What `LineFileReader` has read so far: the lines of each chunk parsed into `batch`, one chunk
/// at a time, on whichever thread `parse` runs it (one at a time: never two at once).
private final class LineScan: @unchecked Sendable {
    let file: FileHandle
    let name: String
    let header: CSVHeader?
    let clock: DayClock
    /// The offset after the last complete line taken, and its number.
    var offset: Int64
    var lineNumber: Int
    var report: FileReport
    var batch = MetricBatch()
    /// The bytes after the last newline read.
    var pending = Data()
    /// True once the file gave no more bytes.
    var ended = false

    init(
        file: FileHandle, name: String, header: CSVHeader?, clock: DayClock, offset: Int64, line: Int,
        report: FileReport
    ) {
        self.file = file
        self.name = name
        self.header = header
        self.clock = clock
        self.offset = offset
        self.lineNumber = line
        self.report = report
    }

    /// Reads the next chunk and takes its complete lines; sets `ended` when there is none.
    func readChunk() throws {
        guard let chunk = try file.read(upToCount: 1 << 20), !chunk.isEmpty else {
            ended = true
            return
        }
        // The bytes kept from the last chunk hold no newline: a line of megabytes is searched once.
        let searched = pending.count
        pending.append(chunk)
        var lineStart = pending.startIndex
        var searchFrom = pending.startIndex + searched
        while let newline = pending[searchFrom...].firstIndex(of: 0x0A) {
            take(pending[lineStart..<newline], length: newline - lineStart + 1)
            lineStart = newline + 1
            searchFrom = lineStart
        }
        pending = Data(pending[lineStart...])
    }

    /// Takes one line (without its newline) of `length` bytes (with it).
    func take(_ line: Data, length: Int) {
        lineNumber += 1
        offset += Int64(length)
        let outcome: LineOutcome
        if let header {
            outcome = header.parse(String(decoding: line, as: UTF8.self), clock: clock)
        } else {
            outcome = JSONLineParser.parse(line, clock: clock)
        }
        switch outcome {
        case .sample(let sample):
            report.recordsRead += 1
            SampleRows.add(sample, to: &batch, clock: clock)
        case .nothing: break
        case .problem(let message):
            report.warningCount += 1
            if report.warnings.count < 50 {
                report.warnings.append(ReadWarning(file: name, location: "line \(lineNumber)", message: message))
            }
        }
    }
}
