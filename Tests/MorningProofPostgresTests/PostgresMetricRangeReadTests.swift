import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// A range of day totals reads that range's rows on PostgreSQL too, whatever the history holds
/// (issue 38, point 4): 100,000 intervals copied from SQLite, read as SQLite reads them.
@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
struct PostgresMetricRangeReadTests {
    @Test func aRangeReadsOnlyItsDaysAfter100000IntervalsBeforeIt() async throws {
        let path = try MetricValueTests.temporaryDatabasePath()
        let sqlite = try AppDatabase.open(path: path)
        var batch = LongSleepHistory.batch(LongSleepHistory.intervals(count: 100_000))
        // `db copy` is checked to copy day totals too.
        batch.exportAggregates = [
            MetricAggregateRow(metric: "steps", day: LongSleepHistory.to, source: "Watch", value: 7_000, count: 12)
        ]
        batch.exportDate = LongSleepHistory.runEnd
        _ = try await sqlite.storeMetrics(batch)
        var expected = LongSleepHistory.days
        expected[LongSleepHistory.to]?["steps"] = 7_000
        let (from, to) = (LongSleepHistory.from, LongSleepHistory.to)
        #expect(try await sqlite.metricDays(from: from, to: to) == expected)
        try await MetricValueTests.withCopy(of: sqlite, from: path) { postgres in
            #expect(try await postgres.metricDays(from: from, to: to) == expected)
            let read = try await postgres.metricRows(from: from, to: to)
            #expect(try read.days() == expected)
            #expect(read.count <= LongSleepHistory.mostRowsRead + 1, "\(read.count) rows read")
            #expect(try await postgres.metricValue(metric: "sleep", day: to) == 480)
        }
    }
}
