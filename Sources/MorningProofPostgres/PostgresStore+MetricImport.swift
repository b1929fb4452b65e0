import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// Imported health metrics, as `AppDatabase` stores and totals them: the same tables, the same
/// UNIQUE keys deciding what is a duplicate, the same counting and export rules
/// (`MetricWriteOutcome.count`, `countExportTotal`) and the same reads (`MetricRowQuery`).
///
/// Metrics are the owner's (account 1), as on SQLite: the metric tables have no account column,
/// another account reads none and cannot store any.
extension PostgresStore: MetricImportStore {
    /// Rows per statement: the batch goes as arrays (`unnest`), not one round trip per row.
    static let metricChunk = 5_000

    /// Serialises metric writes, as SQLite's single writer does, so that two exports read and
    /// replace day totals one after the other: "MPMETRIC" in ASCII.
    static let metricWriteLock: Int64 = 0x4D50_4D45_5452_4943

    /// Stores a batch and, in the same transaction, what was read of its file (`watchedFile`), so
    /// that a crash never leaves samples counted without the resume point that covers them (or the
    /// reverse). Samples and intervals already stored (their UNIQUE key) are duplicates; a
    /// complete export replaces older export totals of its (metric, day, source). Only the owner
    /// stores metrics: another account's batch is refused (`StoreError.invalid`) and nothing stored.
    public func storeMetrics(_ batch: MetricBatch, file: WatchedFileState?) async throws -> MetricWriteOutcome {
        guard accountID == AccountProfile.ownerID else {
            throw StoreError(
                .invalid, value: String(accountID),
                "health metrics are the owner's (account \(AccountProfile.ownerID)) for now: account \(accountID) "
                    + "cannot store any")
        }
        return try await transaction(.writing) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.metricWriteLock))", logger: logger)
            var outcome = MetricWriteOutcome()
            for start in stride(from: 0, to: batch.samples.count, by: Self.metricChunk) {
                let chunk = batch.samples[start..<min(start + Self.metricChunk, batch.samples.count)]
                try await Self.storeSamples(chunk, connection, &outcome, logger: logger)
            }
            for start in stride(from: 0, to: batch.intervals.count, by: Self.metricChunk) {
                let chunk = batch.intervals[start..<min(start + Self.metricChunk, batch.intervals.count)]
                try await Self.storeIntervals(chunk, connection, &outcome, logger: logger)
            }
            try await Self.storeExportAggregates(batch, connection, &outcome, logger: logger)
            if let file { try await Self.saveWatchedFile(file, connection, logger: logger) }
            return outcome
        }
    }

    /// Inserts the samples that are new and adds them to their day's `samples` totals, in one
    /// statement; the rows it returns are the ones stored, the rest were duplicates.
    private static func storeSamples(
        _ samples: ArraySlice<MetricSampleRow>, _ connection: PostgresConnection, _ outcome: inout MetricWriteOutcome,
        logger: Logger
    ) async throws {
        let rows = try await connection.query(
            """
            WITH inserted AS (
                INSERT INTO metricSample (metric, source, start, "end", value, day)
                SELECT * FROM unnest(\(samples.map(\.metric)), \(samples.map(\.source)), \(samples.map(\.start)),
                    \(samples.map(\.end)), \(samples.map(\.value)), \(samples.map(\.day.description)))
                ON CONFLICT DO NOTHING
                RETURNING metric, source, value, day
            ), added AS (
                INSERT INTO metricDaily (metric, day, source, origin, value, count)
                SELECT metric, day, source, 'samples', sum(value), count(*) FROM inserted GROUP BY metric, day, source
                ON CONFLICT (metric, day, source, origin)
                DO UPDATE SET value = metricDaily.value + excluded.value, count = metricDaily.count + excluded.count
            )
            SELECT day, count(*) FROM inserted GROUP BY day
            """, logger: logger
        ).collect()
        try count(rows, of: samples.count, &outcome)
    }

    /// Inserts the sleep intervals and workouts that are new; the rows returned are the ones stored.
    private static func storeIntervals(
        _ intervals: ArraySlice<MetricIntervalRow>, _ connection: PostgresConnection,
        _ outcome: inout MetricWriteOutcome, logger: Logger
    ) async throws {
        let rows = try await connection.query(
            """
            WITH inserted AS (
                INSERT INTO metricInterval (kind, source, start, "end", activity, minutes, day)
                SELECT * FROM unnest(\(intervals.map(\.kind.rawValue)), \(intervals.map(\.source)),
                    \(intervals.map(\.start)), \(intervals.map(\.end)), \(intervals.map(\.activity)),
                    \(intervals.map(\.minutes)), \(intervals.map(\.day.description)))
                ON CONFLICT DO NOTHING
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
        _ batch: MetricBatch, _ connection: PostgresConnection, _ outcome: inout MetricWriteOutcome, logger: Logger
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
            WHERE origin = 'export' AND day BETWEEN \(first.description) AND \(last.description)
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
            INSERT INTO metricDaily (metric, day, source, origin, value, count, exportDate)
            SELECT metric, day, source, 'export', value, count, \(date)
            FROM unnest(\(rowsToWrite.map(\.metric)), \(rowsToWrite.map(\.day.description)),
                \(rowsToWrite.map(\.source)), \(rowsToWrite.map(\.value)), \(rowsToWrite.map { Int64($0.count) }))
                AS t(metric, day, source, value, count)
            ON CONFLICT (metric, day, source, origin)
            DO UPDATE SET value = excluded.value, count = excluded.count, exportDate = excluded.exportDate
            """, logger: logger)
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
    /// None for another account than the owner.
    public func metricTotalsAboveCeiling(on days: Set<LocalDay>) async throws
        -> [(metric: HealthMetric, total: SourceDayTotal)]
    {
        guard accountID == AccountProfile.ownerID, let first = days.min(), let last = days.max() else { return [] }
        let totals = try await transaction(.statement) { connection in
            var rows = FetchedMetricRows()
            try await rows.fetch(.sourceTotals(from: first, to: last, metrics: nil), connection, logger: logger)
            return try rows.sourceTotals(from: first, to: last, metrics: nil)
        }
        return MetricTotalRules.aboveCeiling(totals, on: days)
    }

    /// Every metric with data on each day from `from` through `to`, keyed by `HealthMetric` raw
    /// names, read in one snapshot. Empty for another account than the owner.
    public func metricDays(from: LocalDay, to: LocalDay) async throws -> [LocalDay: [String: Double]] {
        guard accountID == AccountProfile.ownerID else { return [:] }
        return try await transaction(.snapshot) { connection in
            let priority = MetricTotalRules.priority(
                from: try await Self.setting(SettingKey.metricSourcePriority, of: accountID, connection, logger: logger)
            )
            return try await Self.metricDays(
                HealthMetric.allCases, from: from, to: to, activity: nil, priority: priority, connection, logger: logger
            )
        }
    }

    /// The first and last day with any metric data, or nil when there is none (or for another
    /// account than the owner).
    public func metricDayRange() async throws -> ClosedRange<LocalDay>? {
        guard accountID == AccountProfile.ownerID else { return nil }
        let query = MetricRowQuery.dayRange
        let row = try await transaction(.statement) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: query.sql), logger: logger).collect().first
        }
        guard let days = try row?.decode((String?, String?).self),
            let first = days.0.flatMap({ LocalDay($0) }), let last = days.1.flatMap({ LocalDay($0) })
        else { return nil }
        return first...last
    }
}
