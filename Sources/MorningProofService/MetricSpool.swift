import Foundation
import MorningProofCore

/// The batches of an upload read but not yet stored, kept in a file beside its body (issue 38), so
/// that memory holds one batch at a time and not the whole upload: `MetricUploadStore` reads them
/// back, one at a time, inside the one transaction that stores them all. It holds samples and
/// intervals, what CSV and JSON Lines give; removed with `remove()` (and with the upload's folder,
/// by a server that starts after a crash).
final class MetricSpool: @unchecked Sendable {
    let path: String
    private let handle: FileHandle
    private let name: String

    /// A new, empty spool at `body` + ".batches"; `name` is what messages call the body.
    init(beside body: String, shownAs name: String) throws {
        path = body + ".batches"
        self.name = name
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forUpdatingAtPath: path)
        else { throw MorningProofError.ioError("\(name): cannot keep what was read beside it (errno \(errno))") }
        self.handle = handle
    }

    /// Adds `batch` at the end: its length, then its rows.
    func append(_ batch: MetricBatch) throws {
        var rows = SpoolWriter()
        rows.put(UInt64(batch.samples.count))
        for sample in batch.samples {
            rows.put(sample.metric)
            rows.put(sample.source)
            rows.put(sample.start)
            rows.put(sample.end)
            rows.put(sample.value)
            rows.put(sample.day.description)
            rows.put(UInt64(sample.isBucket ? 1 : 0))
        }
        rows.put(UInt64(batch.intervals.count))
        for interval in batch.intervals {
            rows.put(interval.kind.rawValue)
            rows.put(interval.source)
            rows.put(interval.start)
            rows.put(interval.end)
            rows.put(interval.activity)
            rows.put(interval.minutes)
            rows.put(interval.day.description)
        }
        var record = SpoolWriter()
        record.put(UInt64(rows.data.count))
        try handle.write(contentsOf: record.data + rows.data)
    }

    /// Goes back to the first batch, for `next()`.
    func rewind() throws { try handle.seek(toOffset: 0) }

    /// The next batch, or nil after the last.
    func next() throws -> MetricBatch? {
        guard let head = try handle.read(upToCount: 8), !head.isEmpty else { return nil }
        var length = SpoolReader(data: head, name: name)
        let count = Int(try length.integer())
        guard let body = try handle.read(upToCount: count), body.count == count else { throw Self.broken(name) }
        var rows = SpoolReader(data: body, name: name)
        var batch = MetricBatch()
        for _ in 0..<(try rows.integer()) {
            batch.samples.append(
                MetricSampleRow(
                    metric: try rows.string(), source: try rows.string(), start: try rows.double(),
                    end: try rows.double(), value: try rows.double(), day: try rows.day(),
                    isBucket: try rows.integer() == 1))
        }
        for _ in 0..<(try rows.integer()) {
            guard let kind = MetricIntervalRow.Kind(rawValue: try rows.string()) else { throw Self.broken(name) }
            batch.intervals.append(
                MetricIntervalRow(
                    kind: kind, source: try rows.string(), start: try rows.double(), end: try rows.double(),
                    activity: try rows.string(), minutes: try rows.double(), day: try rows.day()))
        }
        return batch
    }

    /// Closes and deletes the spool.
    func remove() {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: path)
    }

    static func broken(_ name: String) -> MorningProofError {
        .ioError("\(name): what was read of it could not be read back from disk")
    }
}

/// Rows as bytes: integers and doubles as 8 bytes (little-endian), strings as their UTF-8 length and bytes.
private struct SpoolWriter {
    var data = Data()

    mutating func put(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    mutating func put(_ value: Double) { put(value.bitPattern) }

    mutating func put(_ value: String) {
        let bytes = Array(value.utf8)
        put(UInt64(bytes.count))
        data.append(contentsOf: bytes)
    }
}

/// Reads what `SpoolWriter` wrote, in the same order.
private struct SpoolReader {
    let data: Data
    let name: String
    var offset = 0

    init(data: Data, name: String) {
        self.data = Data(data)
        self.name = name
    }

    mutating func bytes(_ count: Int) throws -> Data {
        guard count >= 0, count <= data.count - offset else { throw MetricSpool.broken(name) }
        defer { offset += count }
        return data[offset..<offset + count]
    }

    mutating func integer() throws -> UInt64 {
        let bytes = try bytes(8)
        return UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
    }

    mutating func double() throws -> Double { Double(bitPattern: try integer()) }

    mutating func string() throws -> String {
        let count = try integer()
        guard count <= UInt64(data.count) else { throw MetricSpool.broken(name) }
        return String(decoding: try bytes(Int(count)), as: UTF8.self)
    }

    mutating func day() throws -> LocalDay {
        guard let day = LocalDay(try string()) else { throw MetricSpool.broken(name) }
        return day
    }
}
