import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// A range of day totals reads that range's rows, whatever the history holds (issue 38, point 4).
/// The same on PostgreSQL: `PostgresMetricRangeReadTests`.
@Suite("Metric range reads on SQLite")
struct MetricRangeReadTests {
    @Test func aRangeReadsOnlyItsDaysAfter100000IntervalsBeforeIt() async throws {
        let rows = LongSleepHistory.intervals(count: 100_000)
        let (from, to) = (LongSleepHistory.from, LongSleepHistory.to)
        let history = try AppDatabase.inMemory()
        _ = try await history.storeMetrics(LongSleepHistory.batch(rows))
        let alone = try AppDatabase.inMemory()
        _ = try await alone.storeMetrics(LongSleepHistory.batch(rows.filter { $0.day >= from && $0.day <= to }))

        #expect(try await alone.metricDays(from: from, to: to) == LongSleepHistory.days)
        #expect(try await history.metricDays(from: from, to: to) == LongSleepHistory.days)
        let read = try await history.metricRows(from: from, to: to)
        #expect(try read.days() == LongSleepHistory.days)
        #expect(read.count <= LongSleepHistory.mostRowsRead, "\(read.count) rows read of \(rows.count)")
        #expect(try await history.metricValue(metric: "sleep", day: to) == 480)
        #expect(try await history.metricValue(metric: "sleep", day: LocalDay("2026-03-07")!) == nil)
    }
}
