import GRDB
import MorningProofCore
import MorningProofStoreContract

/// An upload's rows staged a chunk at a time, then published in one short transaction (issue 38):
/// each chunk's transaction holds SQLite's one write lock for a few milliseconds, and the
/// publishing moves only the rows that are new, set by set in SQL, so that another account's write
/// never waits for a whole upload. The counts are those of `storeBatch`, row by row, against what
/// was stored when the chunk was staged.
enum MetricUploadStaging {
    /// Rows (samples and intervals together) staged per write transaction.
    static let chunkRows = 2_000

    /// Stages `samples` and `intervals` of upload `upload` for `account`: what is already stored
    /// (or staged) is counted as a duplicate and left out.
    static func stage(
        samples: ArraySlice<MetricSampleRow>, intervals: ArraySlice<MetricIntervalRow>, upload: Int64,
        _ account: Int64, _ db: Database
    ) throws -> MetricWriteOutcome {
        var outcome = MetricWriteOutcome()
        let sample = try db.cachedStatement(
            sql: """
                INSERT INTO metricUploadSample (uploadId, metric, source, start, end, value, day)
                SELECT ?1, ?3, ?4, ?5, ?6, ?7, ?8 WHERE NOT EXISTS (
                    SELECT 1 FROM metricSample WHERE accountId = ?2 AND metric = ?3 AND source = ?4
                    AND start = ?5 AND end = ?6 AND value = ?7)
                ON CONFLICT DO NOTHING
                """)
        for row in samples where !row.isBucket {
            try sample.execute(arguments: [
                upload, account, row.metric, row.source, row.start, row.end, row.value, row.day.description,
            ])
            outcome.count(inserted: db.changesCount > 0, day: row.day)
        }
        for row in samples where row.isBucket { try stageBucket(row, upload, account, db, &outcome) }
        for row in intervals { try stageInterval(row, upload, account, db, &outcome) }
        return outcome
    }

    /// A period's running total: staged when larger than the one staged or stored (`bucketRaise`).
    private static func stageBucket(
        _ row: MetricSampleRow, _ upload: Int64, _ account: Int64, _ db: Database,
        _ outcome: inout MetricWriteOutcome
    ) throws {
        let old = try Double.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT coalesce(
                        (SELECT value FROM metricUploadBucket WHERE uploadId = ?1 AND metric = ?3 AND source = ?4
                         AND start = ?5 AND end = ?6),
                        (SELECT value FROM metricBucket WHERE accountId = ?2 AND metric = ?3 AND source = ?4
                         AND start = ?5 AND end = ?6))
                    """), arguments: [upload, account, row.metric, row.source, row.start, row.end])
        guard MetricWriteOutcome.bucketRaise(old: old, new: row.value) != nil else {
            outcome.count(inserted: false, day: row.day)
            return
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO metricUploadBucket (uploadId, metric, source, start, end, value, day)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET value = excluded.value
                """
        ).execute(arguments: [upload, row.metric, row.source, row.start, row.end, row.value, row.day.description])
        outcome.count(inserted: true, day: row.day)
    }

    /// An interval: staged when new, or, for a night's total, when longer than the one staged or stored.
    private static func stageInterval(
        _ row: MetricIntervalRow, _ upload: Int64, _ account: Int64, _ db: Database,
        _ outcome: inout MetricWriteOutcome
    ) throws {
        let old = try Double.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT coalesce(
                        (SELECT minutes FROM metricUploadInterval WHERE uploadId = ?1 AND kind = ?3 AND source = ?4
                         AND start = ?5 AND end = ?6 AND activity = ?7),
                        (SELECT minutes FROM metricInterval WHERE accountId = ?2 AND kind = ?3 AND source = ?4
                         AND start = ?5 AND end = ?6 AND activity = ?7))
                    """),
            arguments: [upload, account, row.kind.rawValue, row.source, row.start, row.end, row.activity])
        if let old, !(row.kind == .sleepTotal && row.minutes > old) {
            outcome.count(inserted: false, day: row.day)
            return
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO metricUploadInterval (uploadId, kind, source, start, end, activity, minutes, day)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET minutes = excluded.minutes
                """
        ).execute(arguments: [
            upload, row.kind.rawValue, row.source, row.start, row.end, row.activity, row.minutes,
            row.day.description,
        ])
        outcome.count(inserted: true, day: row.day)
    }

    /// Moves upload `upload`'s staged rows into the account's tables and adds them to the day
    /// totals, in the caller's transaction; returns how many staged samples another write stored
    /// meanwhile (duplicates after all, left out).
    static func publish(_ upload: Int64, _ account: Int64, _ db: Database) throws -> Int {
        let arguments: StatementArguments = [account, upload]
        // Only this account's writes can have stored one of these samples since it was staged.
        try db.execute(
            sql: """
                DELETE FROM metricUploadSample WHERE uploadId = ?2 AND EXISTS (
                    SELECT 1 FROM metricSample m WHERE m.accountId = ?1 AND m.metric = metricUploadSample.metric
                    AND m.source = metricUploadSample.source AND m.start = metricUploadSample.start
                    AND m.end = metricUploadSample.end AND m.value = metricUploadSample.value)
                """, arguments: arguments)
        let storedMeanwhile = db.changesCount
        // One statement at a time: each binds the account (?1) and the upload (?2).
        for sql in publishing { try db.execute(sql: sql, arguments: arguments) }
        return storedMeanwhile
    }

    /// What publishing an upload runs, in order: the day totals grow before the buckets they compare with.
    private static let publishing = [
        """
        INSERT INTO metricSample (accountId, metric, source, start, end, value, day)
        SELECT ?1, metric, source, start, end, value, day FROM metricUploadSample WHERE uploadId = ?2
        ON CONFLICT DO NOTHING
        """,
        """
        INSERT INTO metricDaily (accountId, metric, day, source, origin, value, count)
        SELECT ?1, metric, day, source, 'samples', sum(value), count(*) FROM metricUploadSample
        WHERE uploadId = ?2 GROUP BY metric, day, source
        ON CONFLICT (accountId, metric, day, source, origin)
        DO UPDATE SET value = value + excluded.value, count = count + excluded.count
        """,
        """
        INSERT INTO metricDaily (accountId, metric, day, source, origin, value, count)
        SELECT ?1, s.metric, s.day, s.source, 'samples', sum(s.value - coalesce(b.value, 0)),
            sum(b.value IS NULL)
        FROM metricUploadBucket s LEFT JOIN metricBucket b ON b.accountId = ?1 AND b.metric = s.metric
            AND b.source = s.source AND b.start = s.start AND b.end = s.end
        WHERE s.uploadId = ?2 AND (b.value IS NULL OR s.value > b.value) GROUP BY s.metric, s.day, s.source
        ON CONFLICT (accountId, metric, day, source, origin)
        DO UPDATE SET value = value + excluded.value, count = count + excluded.count
        """,
        """
        INSERT INTO metricBucket (accountId, metric, source, start, end, value, day)
        SELECT ?1, metric, source, start, end, value, day FROM metricUploadBucket WHERE uploadId = ?2
        ON CONFLICT DO UPDATE SET value = excluded.value WHERE excluded.value > value
        """,
        """
        INSERT INTO metricInterval (accountId, kind, source, start, end, activity, minutes, day)
        SELECT ?1, kind, source, start, end, activity, minutes, day FROM metricUploadInterval
        WHERE uploadId = ?2
        ON CONFLICT DO UPDATE SET minutes = excluded.minutes
        WHERE excluded.kind = 'sleepTotal' AND excluded.minutes > minutes
        """,
    ]

    /// Removes up to `limit` staged rows of upload `upload` (every upload's when nil) from each
    /// staging table; true when some were left for another call.
    static func remove(_ upload: Int64?, limit: Int, _ db: Database) throws -> Bool {
        var more = false
        for table in MetricUploadStagingSchema.tables {
            try db.execute(
                sql: """
                    DELETE FROM \(table) WHERE rowid IN (
                        SELECT rowid FROM \(table) WHERE ?1 IS NULL OR uploadId = ?1 LIMIT ?2)
                    """, arguments: [upload, limit])
            more = more || db.changesCount == limit
        }
        return more
    }
}
