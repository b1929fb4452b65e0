import Foundation
import MorningProofCore
import MorningProofStore
import ZIPFoundation

/// Reads an Apple Health export, as `export.xml` or straight out of `export.zip`, in chunks of a
/// few megabytes: memory stays flat whatever the size of the file.
public struct AppleHealthReader {
    /// What one export held.
    public struct Export {
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
    var progress: ((Int64, Int64) -> Void)?

    static let chunkSize = 4 << 20

    public init(clock: DayClock, keepSamples: Bool = false, progress: ((Int64, Int64) -> Void)? = nil) {
        self.clock = clock
        self.keepSamples = keepSamples
        self.progress = progress
    }

    /// Reads `export.xml` (whatever its name).
    public func readXML(path: String) throws -> Export {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw MorningProofError.noInput("\(path): cannot open (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        let total = (try? FileIdentity.of(path).size) ?? 0
        var feeder = ChunkFeeder(scanner: scanner(path))
        var done: Int64 = 0
        var lastReport: Int64 = 0
        while true {
            let count = try feeder.fill { pointer, capacity in
                let n = read(fd, pointer, capacity)
                if n < 0 { throw MorningProofError.ioError("\(path): \(String(cString: strerror(errno)))") }
                return n
            }
            if count == 0 { break }
            done += Int64(count)
            if let progress, done - lastReport >= 16 << 20 {
                progress(done, total)
                lastReport = done
            }
        }
        progress?(done, total)
        return try finish(feeder, path: path)
    }

    /// Reads the export inside `export.zip`: the first `.xml` entry outside `__MACOSX/` whose
    /// content is a HealthData document (`export.xml`, `eksport.xml`, `exportar.xml`, ...).
    public func readZip(path: String) throws -> Export {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw MorningProofError.dataError("\(path): not a readable ZIP archive (\(error))")
        }
        guard let entry = try Self.exportEntry(in: archive) else {
            throw MorningProofError.dataError(
                "\(path): a ZIP archive without an Apple Health export (no .xml entry holding <HealthData>)")
        }
        var feeder = ChunkFeeder(scanner: scanner("\(path):\(entry.path)"))
        let total = Int64(entry.uncompressedSize)
        var done: Int64 = 0
        var lastReport: Int64 = 0
        do {
            _ = try archive.extract(entry, bufferSize: 1 << 20, skipCRC32: true) { data in
                try feeder.append(data)
                done += Int64(data.count)
                if let progress, done - lastReport >= 16 << 20 {
                    progress(done, total)
                    lastReport = done
                }
            }
        } catch let error as MorningProofError {
            throw error
        } catch {
            // A damaged or cut-short archive: keep what was read, as an export cut short.
            feeder.scanner.warnings.append(
                ReadWarning(
                    file: path, location: "byte \(done) of \(entry.path)", message: "archive ends early (\(error))"))
        }
        progress?(done, total)
        return try finish(feeder, path: "\(path):\(entry.path)")
    }

    private func scanner(_ name: String) -> AppleHealthScanner {
        AppleHealthScanner(totals: ExportTotals(clock: clock, keepSamples: keepSamples), fileName: name)
    }

    private func finish(_ feeder: ChunkFeeder, path: String) throws -> Export {
        var feeder = feeder
        feeder.finish()
        let scanner = feeder.scanner
        guard scanner.sawHealthData else {
            throw MorningProofError.dataError("\(path): not an Apple Health export (no <HealthData> element)")
        }
        var warnings = scanner.warnings
        if !scanner.sawEnd {
            warnings.append(
                ReadWarning(
                    file: path, location: "byte \(feeder.offset)",
                    message:
                        "the export ends before </HealthData> (still being written?): read up to the last complete record"
                ))
        }
        return Export(
            batch: scanner.totals.batch(complete: scanner.sawEnd), samples: scanner.totals.samples ?? [],
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

    init(scanner: AppleHealthScanner) {
        self.scanner = scanner
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
