import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Imported health metrics, as `AppDatabase` stores and totals them: the same tables, the same
/// keys deciding what is a duplicate, the same counting and export rules
/// (`MetricWriteOutcome.count`, `countExportTotal`, `bucketRaise`) and the same reads
/// (`MetricRowQuery`). Every account's metrics are its own.
extension PostgresStore: MetricImportStore {
    /// Rows per statement: the batch goes as arrays (`unnest`), not one round trip per row.
    static let metricChunk = 5_000

    /// Serialises one account's metric writes, as SQLite's single writer does, so that two exports
    /// read and replace day totals one after the other, and two sends of a running total compare
    /// with what the other stored: "MPMETRIC" in ASCII, plus the account's id.
    static let metricWriteLock: Int64 = 0x4D50_4D45_5452_4943

    /// Stores a batch as the account's and, in the same transaction, what was read of its file
    /// (`watchedFile`), so that a crash never leaves samples counted without the resume point that
    /// covers them (or the reverse). Samples and intervals already stored (their UNIQUE key) are
    /// duplicates; a period's running total counts by how much it grew; a complete export replaces
    /// older export totals of its (metric, day, source). The days whose data changed are marked for
    /// the next judgement of goals.
    public func storeMetrics(_ batch: MetricBatch, file: WatchedFileState?) async throws -> MetricWriteOutcome {
        let account = accountID
        return try await transaction(.writing) { connection in
            // The account's row first, as its deletion takes it (`holdAccount`): never a deadlock with it.
            try await Self.holdAccount(connection, account, url: url, logger: logger)
            try await connection.query(
                "SELECT pg_advisory_xact_lock(\(Self.metricWriteLock + account))", logger: logger)
            return try await Self.storeBatch(batch, file: file, account, connection, logger: logger)
        }
    }

    /// Stores `batch` as account `account`'s and what was read of its `file`, and marks the days it
    /// changed, in the caller's transaction (which holds the account's metric write lock).
    static func storeBatch(
        _ batch: MetricBatch, file: WatchedFileState?, _ account: Int64, _ connection: PostgresConnection,
        logger: Logger
    ) async throws -> MetricWriteOutcome {
        var outcome = MetricWriteOutcome()
        for chunk in chunks(batch.samples.filter { !$0.isBucket }) {
            try await storeSamples(chunk, account, connection, &outcome, logger: logger)
        }
        for chunk in chunks(batch.samples.filter(\.isBucket)) {
            try await storeBuckets(chunk, account, connection, &outcome, logger: logger)
        }
        for chunk in chunks(batch.intervals) {
            try await storeIntervals(chunk, account, connection, &outcome, logger: logger)
        }
        try await storeExportAggregates(batch, account, connection, &outcome, logger: logger)
        if let file { try await saveWatchedFile(file, connection, logger: logger) }
        try await markForJudgement(outcome.daysTouched, account, connection, logger: logger)
        return outcome
    }

    /// `rows` in slices of `metricChunk`, one statement each.
    private static func chunks<Row>(_ rows: [Row]) -> [ArraySlice<Row>] {
        stride(from: 0, to: rows.count, by: metricChunk).map { rows[$0..<min($0 + metricChunk, rows.count)] }
    }

    /// Inserts the samples that are new and adds them to their day's `samples` totals, in one
    /// statement; the rows it returns are the ones stored, the rest were duplicates.
    private static func storeSamples(
        _ samples: ArraySlice<MetricSampleRow>, _ account: Int64, _ connection: PostgresConnection,
        _ outcome: inout MetricWriteOutcome, logger: Logger
    ) async throws {
        let rows = try await connection.query(
            """
            WITH inserted AS (
                INSERT INTO metricSample (accountId, metric, source, start, "end", value, day)
                SELECT \(account), * FROM unnest(\(samples.map(\.metric)), \(samples.map(\.source)),
                    \(samples.map(\.start)), \(samples.map(\.end)), \(samples.map(\.value)),
                    \(samples.map(\.day.description)))
                ON CONFLICT DO NOTHING
                RETURNING metric, source, value, day
            ), added AS (
                INSERT INTO metricDaily (accountId, metric, day, source, origin, value, count)
                SELECT \(account), metric, day, source, 'samples', sum(value), count(*) FROM inserted
                GROUP BY metric, day, source
                ON CONFLICT (accountId, metric, day, source, origin)
                DO UPDATE SET value = metricDaily.value + excluded.value, count = metricDaily.count + excluded.count
            )
            SELECT day, count(*) FROM inserted GROUP BY day
            """, logger: logger
        ).collect()
        try count(rows, of: samples.count, &outcome)
    }

    /// Running totals of periods (`bucketRaise`): the largest of the chunk's sends of a period
    /// against the stored one; a new period is stored, a larger one raised and its day's total
    /// grown by the difference. The rows returned are the periods that changed.
    private static func storeBuckets(
        _ buckets: ArraySlice<MetricSampleRow>, _ account: Int64, _ connection: PostgresConnection,
        _ outcome: inout MetricWriteOutcome, logger: Logger
    ) async throws {
        let rows = try await connection.query(
            """
            WITH incoming AS (
                SELECT metric, source, start, "end", max(value) AS value, min(day) AS day
                FROM unnest(\(buckets.map(\.metric)), \(buckets.map(\.source)), \(buckets.map(\.start)),
                    \(buckets.map(\.end)), \(buckets.map(\.value)), \(buckets.map(\.day.description)))
                    AS t(metric, source, start, "end", value, day)
                GROUP BY metric, source, start, "end"
            ), raised AS (
                SELECT i.*, b.value AS old FROM incoming i
                LEFT JOIN metricBucket b ON b.accountId = \(account) AND b.metric = i.metric
                    AND b.source = i.source AND b.start = i.start AND b."end" = i."end"
                WHERE b.value IS NULL OR i.value > b.value
            ), stored AS (
                INSERT INTO metricBucket (accountId, metric, source, start, "end", value, day)
                SELECT \(account), metric, source, start, "end", value, day FROM raised
                ON CONFLICT (accountId, metric, source, start, "end") DO UPDATE SET value = excluded.value
            ), added AS (
                INSERT INTO metricDaily (accountId, metric, day, source, origin, value, count)
                SELECT \(account), metric, day, source, 'samples', sum(value - coalesce(old, 0)),
                    count(*) FILTER (WHERE old IS NULL)
                FROM raised GROUP BY metric, day, source
                ON CONFLICT (accountId, metric, day, source, origin)
                DO UPDATE SET value = metricDaily.value + excluded.value, count = metricDaily.count + excluded.count
            )
            SELECT day, count(*) FROM raised GROUP BY day
            """, logger: logger
        ).collect()
        try count(rows, of: buckets.count, &outcome)
    }

    /// Inserts the sleep intervals and workouts that are new, and raises a night's total
    /// (`sleepTotal`) sent again with more minutes; the rows returned are the ones stored.
    private static func storeIntervals(
        _ intervals: ArraySlice<MetricIntervalRow>, _ account: Int64, _ connection: PostgresConnection,
        _ outcome: inout MetricWriteOutcome, logger: Logger
    ) async throws {
        let rows = try await connection.query(
            """
            WITH inserted AS (
                INSERT INTO metricInterval AS stored (accountId, kind, source, start, "end", activity, minutes, day)
                SELECT DISTINCT ON (kind, source, start, "end", activity) \(account), *
                FROM unnest(\(intervals.map(\.kind.rawValue)), \(intervals.map(\.source)),
                    \(intervals.map(\.start)), \(intervals.map(\.end)), \(intervals.map(\.activity)),
                    \(intervals.map(\.minutes)), \(intervals.map(\.day.description)))
                    AS t(kind, source, start, "end", activity, minutes, day)
                ORDER BY kind, source, start, "end", activity, minutes DESC
                ON CONFLICT (accountId, kind, source, start, "end", activity) DO UPDATE SET minutes = excluded.minutes
                WHERE excluded.kind = 'sleepTotal' AND excluded.minutes > stored.minutes
                RETURNING day
            )
            SELECT day, count(*) FROM inserted GROUP BY day
            """, logger: logger
        ).collect()
        try count(rows, of: intervals.count, &outcome)
    }

    /// Counts `total` rows offered of which `rows` (day, count) were stored: the others were
    /// duplicates (`MetricWriteOutcome.count`'s rule, a statement at a time).
    private static func count(_ rows: [PostgresRow], of total: Int, _ outcome: inout MetricWriteOutcome) throws {
        var stored = 0
        for row in rows {
            let (dayText, count) = try row.decode((String, Int64).self)
            guard let day = LocalDay(dayText) else { continue }
            outcome.recordsStored += Int(count)
            outcome.daysTouched.insert(day)
            stored += Int(count)
        }
        outcome.duplicatesSkipped += total - stored
    }

    /// An export's day totals against what earlier exports stored (`countExportTotal` decides),
    /// the ones that replace or add written in one statement.
    private static func storeExportAggregates(
        _ batch: MetricBatch, _ account: Int64, _ connection: PostgresConnection, _ outcome: inout MetricWriteOutcome,
        logger: Logger
    ) async throws {
        guard let first = batch.exportAggregates.map(\.day).min(), let last = batch.exportAggregates.map(\.day).max()
        else { return }
        struct Key: Hashable {
            var metric: String
            var day: String
            var source: String
        }
        var stored: [Key: MetricWriteOutcome.StoredExportTotal] = [:]
        let rows = try await connection.query(
            """
            SELECT metric, day, source, value, count, exportDate FROM metricDaily
            WHERE accountId = \(account) AND origin = 'export' AND day BETWEEN \(first.description) AND \(last.description)
            """, logger: logger)
        for try await (metric, day, source, value, count, date) in rows.decode(
            (String, String, String, Double, Int64, Double?).self)
        {
            stored[Key(metric: metric, day: day, source: source)] = .init(
                value: value, count: Int(count), exportDate: date ?? 0)
        }
        let date = batch.exportDate ?? 0
        // One row per key: the export's totals are per (metric, day, source) already; were one
        // repeated, the last would win, as SQLite's row-by-row upserts leave it.
        var writes: [Key: MetricAggregateRow] = [:]
        for row in batch.exportAggregates {
            let key = Key(metric: row.metric, day: row.day.description, source: row.source)
            if outcome.countExportTotal(
                row, stored: stored[key], exportDate: date, exportComplete: batch.exportComplete)
            {
                writes[key] = row
            }
        }
        guard !writes.isEmpty else { return }
        let rowsToWrite = Array(writes.values)
        try await connection.query(
            """
            INSERT INTO metricDaily (accountId, metric, day, source, origin, value, count, exportDate)
            SELECT \(account), metric, day, source, 'export', value, count, \(date)
            FROM unnest(\(rowsToWrite.map(\.metric)), \(rowsToWrite.map(\.day.description)),
                \(rowsToWrite.map(\.source)), \(rowsToWrite.map(\.value)), \(rowsToWrite.map { Int64($0.count) }))
                AS t(metric, day, source, value, count)
            ON CONFLICT (accountId, metric, day, source, origin)
            DO UPDATE SET value = excluded.value, count = excluded.count, exportDate = excluded.exportDate
            """, logger: logger)
    }

    /// Marks `days` as changed since the account's goals were last judged.
    private static func markForJudgement(
        _ days: Set<LocalDay>, _ account: Int64, _ connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !days.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO metricDayMark (accountId, day, mark)
            SELECT \(account), day, 1 FROM unnest(\(days.map(\.description))) AS t(day)
            ON CONFLICT (accountId, day) DO UPDATE SET mark = metricDayMark.mark + 1
            """, logger: logger)
    }

    /// The account's days whose metric data changed since their goals were last judged, with the
    /// mark each had when read.
    public func metricDaysToJudge() async throws -> [LocalDay: Int64] {
        try await transaction(.statement) { connection in
            var marks: [LocalDay: Int64] = [:]
            let rows = try await connection.query(
                "SELECT day, mark FROM metricDayMark WHERE accountId = \(accountID)", logger: logger)
            for try await (day, mark) in rows.decode((String, Int64).self) {
                if let day = LocalDay(day) { marks[day] = mark }
            }
            return marks
        }
    }

    /// Forgets the marks of days judged: each only if it was not marked again since it was read.
    public func judgedMetricDays(_ marks: [LocalDay: Int64]) async throws {
        guard !marks.isEmpty else { return }
        let days = marks.keys.map(\.description)
        let values = marks.keys.map { marks[$0]! }
        try await transaction(.writing) { connection in
            try await connection.query(
                """
                DELETE FROM metricDayMark AS m USING unnest(\(days), \(values)) AS t(day, mark)
                WHERE m.accountId = \(accountID) AND m.day = t.day AND m.mark = t.mark
                """, logger: logger)
        }
    }

    /// Records what was read of a file, as `AppDatabase.saveWatchedFile` does.
    static func saveWatchedFile(_ state: WatchedFileState, _ connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.query(
            """
            INSERT INTO watchedFile (path, size, mtime, inode, headFingerprint, resumeOffset, resumeLine,
                complete, format, readAt)
            VALUES (\(state.path), \(state.size), \(state.mtime), \(Int64(bitPattern: state.inode)),
                \(state.headFingerprint), \(state.resumeOffset), \(Int64(state.resumeLine)), \(state.complete),
                \(state.format), \(state.readAt))
            ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime,
                inode = excluded.inode, headFingerprint = excluded.headFingerprint,
                resumeOffset = excluded.resumeOffset, resumeLine = excluded.resumeLine,
                complete = excluded.complete, format = excluded.format, readAt = excluded.readAt
            """, logger: logger)
    }

    /// The (metric, day, source) totals on `days` above their metric's ceiling: they do not count.
    public func metricTotalsAboveCeiling(on days: Set<LocalDay>) async throws
        -> [(metric: HealthMetric, total: SourceDayTotal)]
    {
        guard let first = days.min(), let last = days.max() else { return [] }
        let totals = try await transaction(.statement) { connection in
            var rows = FetchedMetricRows(account: accountID)
            try await rows.fetch(
                .sourceTotals(account: accountID, from: first, to: last, metrics: nil), connection, logger: logger)
            return try rows.sourceTotals(from: first, to: last, metrics: nil)
        }
        return MetricTotalRules.aboveCeiling(totals, on: days)
    }

    /// Every metric with data on each day from `from` through `to`, keyed by `HealthMetric` raw
    /// names, read in one snapshot.
    public func metricDays(from: LocalDay, to: LocalDay) async throws -> [LocalDay: [String: Double]] {
        try await transaction(.snapshot) { connection in
            let priority = MetricTotalRules.priority(
                from: try await Self.setting(SettingKey.metricSourcePriority, of: accountID, connection, logger: logger)
            )
            return try await Self.metricDays(
                HealthMetric.allCases, of: accountID, from: from, to: to, activity: nil, priority: priority, connection,
                logger: logger)
        }
    }

    /// The first and last day with any metric data, or nil when there is none.
    public func metricDayRange() async throws -> ClosedRange<LocalDay>? {
        let query = MetricRowQuery.dayRange(account: accountID)
        let row = try await transaction(.statement) { connection in
            try await connection.query(FetchedMetricRows.postgresQuery(query), logger: logger).collect().first
        }
        guard let days = try row?.decode((String?, String?).self),
            let first = days.0.flatMap({ LocalDay($0) }), let last = days.1.flatMap({ LocalDay($0) })
        else { return nil }
        return first...last
    }
}
