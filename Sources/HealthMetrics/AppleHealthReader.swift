import Foundation
import MorningProofCore
import ZIPFoundation

/// Reads an Apple Health export, as `export.xml` or straight out of `export.zip`, in chunks of a
/// few megabytes: memory stays flat whatever the size of the file.
public struct AppleHealthReader: Sendable {
    /// What one export held.
    public struct Export: Sendable {
        public var batch: MetricBatch
        /// Every sample, when asked for (`keepSamples`).
        public var samples: [MetricSample]
        public var recordsRead: Int
        public var warnings: [ReadWarning]
        public var warningCount: Int
        /// False when the export ends before `</HealthData>` (still being written, or cut short).
        public var complete: Bool
    }

    let clock: DayClock
    let keepSamples: Bool
    /// Called with (bytes read, total bytes) now and then.
    var progress: (@Sendable (Int64, Int64) -> Void)?
    /// Files at least this big are scanned in parts, on several threads.
    var parallelThreshold: Int64 = 64 << 20
    /// Four parts: two per core on a two-core machine, so the scan keeps its cores while
    /// other processes run; more cores than four bring little, the rest being memchr and the disk.
    var parallelParts = 4

    static let chunkSize = 4 << 20

    /// The most an export inside a zip may expand to, per compressed byte: Apple's export.xml
    /// compresses about 15 to 30 times; a zip bomb (gigabytes of one repeated record from a few
    /// megabytes) would keep a core and an upload's place for minutes.
    public static let maxExpansion: Int64 = 100
    /// Small entries may expand more (a header, a few repeated records) without being refused.
    static let expansionAllowance: Int64 = 16 << 20

    public init(clock: DayClock, keepSamples: Bool = false, progress: (@Sendable (Int64, Int64) -> Void)? = nil) {
        self.clock = clock
        self.keepSamples = keepSamples
        self.progress = progress
    }

    /// Reads `export.xml` (whatever its name); messages and warnings name it as `shownAs` (default: its path).
    public func readXML(path: String, shownAs name: String? = nil) throws -> Export {
        let name = name ?? path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            let number = errno
            throw MetricFileError.cannotOpen(
                name, errno: number, "\(name): cannot open (\(String(cString: strerror(number))))")
        }
        defer { close(fd) }
        let total = (try? FileIdentity.of(path).size) ?? 0
        let ranges = Self.parts(fd: fd, size: total, count: total >= parallelThreshold ? parallelParts : 1)
        let counter = ProgressCounter(total: total, report: progress)
        if ranges.count == 1 {
            var feeder = try scan(fd: fd, name: name, range: ranges[0], counter: counter)
            feeder.finish()
            return try export(feeder.scanner, name: name, end: feeder.offset)
        }
        // Big files: the parts are scanned on their own threads and their sums merged.
        let parts = try ParallelMap.run(ranges, workers: ProcessInfo.processInfo.activeProcessorCount) { range in
            Result {
                var feeder = try scan(fd: fd, name: name, range: range, counter: counter)
                feeder.finish()
                return (scanner: feeder.scanner, end: feeder.offset)
            }
        }.map { try $0.get() }
        var merged = parts[0].scanner
        for part in parts.dropFirst() { merged.absorb(part.scanner) }
        return try export(merged, name: name, end: parts.last!.end)
    }

    /// Scans bytes `range` of the open file with pread; `name` is the file in messages.
    private func scan(fd: Int32, name: String, range: Range<Int64>, counter: ProgressCounter) throws -> ChunkFeeder {
        var feeder = ChunkFeeder(scanner: scanner(name), offset: range.lowerBound)
        var position = range.lowerBound
        while position < range.upperBound {
            let count = try feeder.fill { pointer, capacity in
                let wanted = Int(min(Int64(capacity), range.upperBound - position))
                let n = pread(fd, pointer, wanted, off_t(position))
                if n < 0 {
                    let reason = String(cString: strerror(errno))
                    throw MetricFileError(.unreadable, path: name, "\(name): \(reason)", cause: reason)
                }
                return n
            }
            if count == 0 { break }
            position += Int64(count)
            counter.add(Int64(count))
        }
        return feeder
    }

    /// Reads the export inside `export.zip`: the first `.xml` entry outside `__MACOSX/` whose
    /// content is a HealthData document (`export.xml`, `eksport.xml`, `exportar.xml`, ...). Messages
    /// and warnings name the archive as `shownAs` (default: its path).
    public func readZip(path: String, shownAs name: String? = nil) throws -> Export {
        let name = name ?? path
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw MetricFileError(
                .notMetrics, path: name, "\(name): not a readable ZIP archive (\(error))", cause: "\(error)")
        }
        guard let entry = try Self.exportEntry(in: archive) else {
            throw MetricFileError(
                .notMetrics, path: name,
                "\(name): a ZIP archive without an Apple Health export (no .xml entry holding <HealthData>)")
        }
        var feeder = ChunkFeeder(scanner: scanner("\(name):\(entry.path)"))
        let total = Int64(entry.uncompressedSize)
        let most = Int64(entry.compressedSize).multipliedReportingOverflow(by: Self.maxExpansion)
        let bound = most.overflow ? Int64.max : most.partialValue + Self.expansionAllowance
        var done: Int64 = 0
        var lastReport: Int64 = 0
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 20, skipCRC32: true) { data in
                done += Int64(data.count)
                guard done <= bound else {
                    throw MetricFileError(
                        .notMetrics, path: name,
                        "\(name): \(entry.path) expands to more than \(Self.maxExpansion) times its compressed size: no Apple Health export does (a zip bomb?)"
                    )
                }
                try feeder.append(data)
                if let progress, done - lastReport >= 16 << 20 {
                    progress(done, total)
                    lastReport = done
                }
            }
        } catch let error as MetricFileError {
            throw error
        } catch {
            // A damaged or cut-short archive: keep what was read, as an export cut short.
            feeder.scanner.warnings.append(
                ReadWarning(
                    file: name, location: "byte \(done) of \(entry.path)", message: "archive ends early (\(error))"))
        }
        progress?(done, total)
        feeder.finish()
        return try export(feeder.scanner, name: "\(name):\(entry.path)", end: feeder.offset)
    }

    private func scanner(_ name: String) -> AppleHealthScanner {
        AppleHealthScanner(totals: ExportTotals(clock: clock, keepSamples: keepSamples), fileName: name)
    }

    private func export(_ scanner: AppleHealthScanner, name: String, end: Int64) throws -> Export {
        var scanner = scanner
        guard scanner.sawHealthData else {
            throw MetricFileError(
                .notMetrics, path: name, "\(name): not an Apple Health export (no <HealthData> element)")
        }
        var warnings = scanner.warnings
        if !scanner.sawEnd {
            warnings.append(
                ReadWarning(
                    file: name, location: "byte \(end)",
                    message:
                        "the export ends before </HealthData> (still being written?): read up to the last complete record"
                ))
        }
        let batch = scanner.totals.batch(complete: scanner.sawEnd)
        return Export(
            batch: batch, samples: scanner.totals.samples ?? [],
            recordsRead: scanner.totals.recordsRead, warnings: warnings,
            warningCount: scanner.warningCount + (scanner.sawEnd ? 0 : 1), complete: scanner.sawEnd)
    }

    /// The archive entry holding the export.
    static func exportEntry(in archive: Archive) throws -> ZIPFoundation.Entry? {
        let candidates = archive.filter { entry in
            let path = entry.path
            let name = (path as NSString).lastPathComponent
            return entry.type == .file && !path.hasPrefix("__MACOSX/") && !path.contains("/__MACOSX/")
                && !name.hasPrefix("._") && name.lowercased().hasSuffix(".xml") && !name.lowercased().contains("_cda")
        }
        struct Enough: Error {}
        for entry in candidates.sorted(by: { $0.path.count < $1.path.count }) {
            var head = Data()
            do {
                _ = try archive.extract(entry, bufferSize: 16_384, skipCRC32: true) { data in
                    head.append(data)
                    if head.count >= MetricFileFormat.headSize { throw Enough() }
                }
            } catch is Enough {
            } catch {
                continue
            }
            if MetricFileFormat.detect(head: head) == .appleHealthXML { return entry }
        }
        return nil
    }
}

/// A reusable buffer between the bytes arriving and the scanner: complete tags are scanned,
/// the unfinished tail moves to the front and waits for the next chunk.
struct ChunkFeeder {
    var scanner: AppleHealthScanner
    private var buffer: UnsafeMutableRawBufferPointer
    private var filled = 0
    /// File offset of `buffer[0]`.
    private(set) var offset: Int64 = 0

    init(scanner: AppleHealthScanner, offset: Int64 = 0) {
        self.scanner = scanner
        self.offset = offset
        buffer = .allocate(byteCount: AppleHealthReader.chunkSize, alignment: 16)
    }

    /// Reads into the free part of the buffer with `read`, scans, and returns the bytes read (0 at the end).
    mutating func fill(_ read: (UnsafeMutableRawPointer, Int) throws -> Int) throws -> Int {
        if filled == buffer.count { grow() }
        let n = try read(buffer.baseAddress! + filled, buffer.count - filled)
        guard n > 0 else { return 0 }
        filled += n
        scanFilled(final: false)
        return n
    }

    mutating func append(_ data: Data) throws {
        var rest = data[...]
        while !rest.isEmpty {
            if filled == buffer.count { grow() }
            let n = min(rest.count, buffer.count - filled)
            rest.prefix(n).withUnsafeBytes {
                (buffer.baseAddress! + filled).copyMemory(from: $0.baseAddress!, byteCount: n)
            }
            filled += n
            rest = rest.dropFirst(n)
            scanFilled(final: false)
        }
    }

    /// Scans what is left at the end of the input and frees the buffer.
    mutating func finish() {
        scanFilled(final: true)
        buffer.deallocate()
        buffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    }

    private mutating func scanFilled(final: Bool) {
        let consumed = scanner.scan(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]), offset: offset, final: final)
        if consumed > 0 {
            let rest = filled - consumed
            if rest > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + consumed, rest) }
            filled = rest
            offset += Int64(consumed)
        }
    }

    /// A single tag longer than the buffer: double it.
    private mutating func grow() {
        let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 16)
        bigger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: filled)
        buffer.deallocate()
        buffer = bigger
    }
}
