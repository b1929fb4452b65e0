import Foundation
import MorningProofCore

extension AppleHealthReader {
    /// Splits a file into `count` byte ranges that each begin at a top-level element: a line
    /// ` <Record `, ` <Workout ` or ` <ActivitySummary ` indented by one space, as Apple writes
    /// them (children of a Correlation or a Workout are indented further), so no part starts
    /// inside another element.
    static func parts(fd: Int32, size: Int64, count: Int) -> [Range<Int64>] {
        guard count > 1 else { return [0..<size] }
        var starts: [Int64] = [0]
        let window = 1 << 20
        var buffer = [UInt8](repeating: 0, count: window)
        let markers: [[UInt8]] = ["\n <Record ", "\n <Workout ", "\n <ActivitySummary "].map { Array($0.utf8) }
        for i in 1..<count {
            let guess = size * Int64(i) / Int64(count)
            guard guess > starts.last! else { continue }
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, window, off_t(guess)) }
            guard n > 0 else { continue }
            var found: Int?
            var k = 0
            while k < n - 20 {
                if buffer[k] == 0x0A, buffer[k + 1] == 0x20, buffer[k + 2] == 0x3C,
                    markers.contains(where: { m in k + m.count <= n && buffer[k..<(k + m.count)].elementsEqual(m) })
                {
                    found = k + 2
                    break
                }
                k += 1
            }
            if let found { starts.append(guess + Int64(found)) }
        }
        starts.append(size)
        return zip(starts, starts.dropFirst()).map { $0..<$1 }
    }
}

extension AppleHealthScanner {
    /// Adds what a scanner of a later part of the same file found.
    mutating func absorb(_ other: AppleHealthScanner) {
        totals.absorb(other.totals)
        warnings += other.warnings.prefix(max(0, 50 - warnings.count))
        warningCount += other.warningCount
        sawEnd = other.sawEnd
    }
}

extension ExportTotals {
    /// Adds another part's sums, intervals and samples, matching sources by name.
    mutating func absorb(_ other: ExportTotals) {
        var part = other
        part.flushRun()
        flushRun()
        var map: [Int32] = []
        for name in part.sources {
            if let index = sources.firstIndex(of: name) {
                map.append(Int32(index))
            } else {
                sources.append(name)
                map.append(Int32(sources.count - 1))
            }
        }
        for (key, sum) in part.sums {
            let mapped = Key(metric: key.metric, source: map[Int(key.source)], day: key.day)
            sums[mapped, default: (0, 0)].value += sum.value
            sums[mapped, default: (0, 0)].count += sum.count
        }
        intervals += part.intervals
        recordsRead += part.recordsRead
        if exportDate == nil { exportDate = part.exportDate }
        if samples != nil { samples! += part.samples ?? [] }
    }
}

/// Bytes read so far by all parts, reported every 16 MB.
final class ProgressCounter: Sendable {
    /// Bytes read, and bytes read at the last report.
    private let counts = Locked((done: Int64(0), reported: Int64(0)))
    let total: Int64
    let report: (@Sendable (Int64, Int64) -> Void)?

    init(total: Int64, report: (@Sendable (Int64, Int64) -> Void)?) {
        self.total = total
        self.report = report
    }

    func add(_ bytes: Int64) {
        guard let report else { return }
        counts.withLock { counts in
            counts.done += bytes
            if counts.done - counts.reported >= 16 << 20 || counts.done == total {
                counts.reported = counts.done
                report(counts.done, total)
            }
        }
    }
}
