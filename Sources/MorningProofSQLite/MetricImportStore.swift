import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase: MetricImportStore {
    /// Stores a batch as the account's and, in the same transaction, what was read of its file, so
    /// that a crash never leaves samples counted without the resume point that covers them (or the
    /// reverse). The days whose data changed are marked for the next goal judgement.
    @discardableResult
    public func storeMetrics(_ batch: MetricBatch, file: WatchedFileState? = nil) async throws -> MetricWriteOutcome {
        let account = accountID
        return try await asyncWrite { db in try Self.storeBatch(batch, file: file, account, db) }
    }

    /// Stores `batch` as account `account`'s and what was read of its `file`, and marks the days it
    /// changed, in the caller's transaction.
    static func storeBatch(_ batch: MetricBatch, file: WatchedFileState?, _ account: Int64, _ db: Database) throws
        -> MetricWriteOutcome
    {
        var outcome = MetricWriteOutcome()
        try storeSamples(batch.samples.filter { !$0.isBucket }, account, db, &outcome)
        try storeBuckets(batch.samples.filter(\.isBucket), account, db, &outcome)
        try storeIntervals(batch.intervals, account, db, &outcome)
        try storeExportAggregates(batch, account, db, &outcome)
        if let file { try saveWatchedFile(file, db) }
        try markForJudgement(outcome.daysTouched, account, db)
        return outcome
    }

    private static func storeSamples(
        _ samples: [MetricSampleRow], _ account: Int64, _ db: Database, _ outcome: inout MetricWriteOutcome
    ) throws {
        guard !samples.isEmpty else { return }
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO metricSample (accountId, metric, source, start, end, value, day) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT DO NOTHING
                """)
        for sample in samples {
            let day = sample.day.description
            try insert.execute(arguments: [
                account, sample.metric, sample.source, sample.start, sample.end, sample.value, day,
            ])
            let inserted = db.changesCount > 0
            outcome.count(inserted: inserted, day: sample.day)
            if inserted { try addToDay(sample, adding: sample.value, newRow: true, account, db) }
        }
    }

    /// A period's running total: stored when new, raised when larger (its day's total grows by the
    /// difference), else a duplicate.
    private static func storeBuckets(
        _ buckets: [MetricSampleRow], _ account: Int64, _ db: Database, _ outcome: inout MetricWriteOutcome
    ) throws {
        guard !buckets.isEmpty else { return }
        let stored = try db.makeStatement(
            sql:
                "SELECT value FROM metricBucket WHERE accountId = ? AND metric = ? AND source = ? AND start = ? AND end = ?"
        )
        let upsert = try db.makeStatement(
            sql: """
                INSERT INTO metricBucket (accountId, metric, source, start, end, value, day) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT DO UPDATE SET value = excluded.value
                """)
        for bucket in buckets {
            let key: StatementArguments = [account, bucket.metric, bucket.source, bucket.start, bucket.end]
            let old = try Double.fetchOne(stored, arguments: key)
            guard let raise = MetricWriteOutcome.bucketRaise(old: old, new: bucket.value) else {
                outcome.count(inserted: false, day: bucket.day)
                continue
            }
            try upsert.execute(arguments: key + [bucket.value, bucket.day.description])
            outcome.count(inserted: true, day: bucket.day)
            try addToDay(bucket, adding: raise, newRow: old == nil, account, db)
        }
    }

    /// Adds `amount` to the sample's day total of its metric and source.
    private static func addToDay(
        _ sample: MetricSampleRow, adding amount: Double, newRow: Bool, _ account: Int64, _ db: Database
    ) throws {
        // Prepared once per connection: a batch runs it once per sample stored.
        try db.cachedStatement(
            sql: """
                INSERT INTO metricDaily (accountId, metric, day, source, origin, value, count) VALUES (?, ?, ?, ?, 'samples', ?, ?)
                ON CONFLICT (accountId, metric, day, source, origin)
                DO UPDATE SET value = value + excluded.value, count = count + excluded.count
                """
        ).execute(arguments: [account, sample.metric, sample.day.description, sample.source, amount, newRow ? 1 : 0])
    }

    /// Sleep intervals and workouts are stored once; a night's total (`sleepTotal`) sent again with
    /// more minutes (the night went on) keeps the larger.
    private static func storeIntervals(
        _ intervals: [MetricIntervalRow], _ account: Int64, _ db: Database, _ outcome: inout MetricWriteOutcome
    ) throws {
        guard !intervals.isEmpty else { return }
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO metricInterval (accountId, kind, source, start, end, activity, minutes, day)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT DO UPDATE SET minutes = excluded.minutes
                WHERE excluded.kind = 'sleepTotal' AND excluded.minutes > minutes
                """)
        for interval in intervals {
            try insert.execute(arguments: [
                account, interval.kind.rawValue, interval.source, interval.start, interval.end, interval.activity,
                interval.minutes, interval.day.description,
            ])
            outcome.count(inserted: db.changesCount > 0, day: interval.day)
        }
    }

    /// A complete export replaces the stored export total of each (metric, day, source) it holds,
    /// unless that total came from a newer export; an export cut short only raises totals.
    static func storeExportAggregates(
        _ batch: MetricBatch, _ account: Int64, _ db: Database, _ outcome: inout MetricWriteOutcome
    ) throws {
        guard !batch.exportAggregates.isEmpty else { return }
        // What earlier exports stored, in one query (a few thousand rows per year of data).
        struct Key: Hashable {
            var metric: String
            var day: String
            var source: String
        }
        var stored: [Key: MetricWriteOutcome.StoredExportTotal] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT metric, day, source, value, count, exportDate FROM metricDaily
                WHERE accountId = ? AND origin = 'export'
                """, arguments: [account])
        while let row = try rows.next() {
            stored[Key(metric: row[0], day: row[1], source: row[2])] = .init(
                value: row[3], count: row[4], exportDate: row[5] ?? 0)
        }
        let upsert = try db.makeStatement(
            sql: """
                INSERT INTO metricDaily (accountId, metric, day, source, origin, value, count, exportDate)
                VALUES (?, ?, ?, ?, 'export', ?, ?, ?)
                ON CONFLICT (accountId, metric, day, source, origin)
                DO UPDATE SET value = excluded.value, count = excluded.count, exportDate = excluded.exportDate
                """)
        let date = batch.exportDate ?? 0
        for row in batch.exportAggregates {
            let day = row.day.description
            let writes = outcome.countExportTotal(
                row, stored: stored[Key(metric: row.metric, day: day, source: row.source)], exportDate: date,
                exportComplete: batch.exportComplete)
            guard writes else { continue }
            try upsert.execute(arguments: [account, row.metric, day, row.source, row.value, row.count, date])
        }
    }

    /// Marks `days` as changed since the account's goals were last judged.
    static func markForJudgement(_ days: Set<LocalDay>, _ account: Int64, _ db: Database) throws {
        guard !days.isEmpty else { return }
        let mark = try db.makeStatement(
            sql: """
                INSERT INTO metricDayMark (accountId, day, mark) VALUES (?, ?, 1)
                ON CONFLICT DO UPDATE SET mark = mark + 1
                """)
        for day in days { try mark.execute(arguments: [account, day.description]) }
    }

    /// The account's days whose metric data changed since their goals were last judged, with the
    /// mark each had when read.
    public func metricDaysToJudge() async throws -> [LocalDay: Int64] {
        let account = accountID
        return try await asyncRead { db in
            var marks: [LocalDay: Int64] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT day, mark FROM metricDayMark WHERE accountId = ?", arguments: [account])
            {
                if let day = LocalDay(row[0] as String) { marks[day] = row[1] }
            }
            return marks
        }
    }

    /// Forgets the marks of days judged: each only if it was not marked again since it was read.
    public func judgedMetricDays(_ marks: [LocalDay: Int64]) async throws {
        guard !marks.isEmpty else { return }
        let account = accountID
        try await asyncWrite { db in
            let delete = try db.makeStatement(
                sql: "DELETE FROM metricDayMark WHERE accountId = ? AND day = ? AND mark = ?")
            for (day, mark) in marks { try delete.execute(arguments: [account, day.description, mark]) }
        }
    }

    /// The (metric, day, source) totals on `days` above their metric's ceiling: they do not count.
    public func metricTotalsAboveCeiling(on days: Set<LocalDay>) async throws
        -> [(metric: HealthMetric, total: SourceDayTotal)]
    {
        guard let first = days.min(), let last = days.max() else { return [] }
        let totals = try await asyncRead { db in
            try SQLiteMetricRows(db: db, account: accountID).sourceTotals(from: first, to: last, metrics: nil)
        }
        return MetricTotalRules.aboveCeiling(totals, on: days)
    }

    /// Every metric with data on each day from `from` through `to`, keyed by `HealthMetric` raw names.
    public func metricDays(from: LocalDay, to: LocalDay) async throws -> [LocalDay: [String: Double]] {
        try await asyncRead { db in
            let priority = try Self.metricPriority(db, accountID: accountID)
            return try MetricTotalRules.days(
                HealthMetric.allCases, from: from, to: to, activity: nil, priority: priority,
                rows: SQLiteMetricRows(db: db, account: accountID))
        }
    }

    /// The first and last day with any metric data, or nil when there is none.
    public func metricDayRange() async throws -> ClosedRange<LocalDay>? {
        let query = MetricRowQuery.dayRange(account: accountID)
        return try await asyncRead { db in
            let row = try Row.fetchOne(db, sql: query.sql, arguments: SQLiteMetricRows.arguments(query))
            guard let first = (row?["first"] as String?).flatMap({ LocalDay($0) }),
                let last = (row?["last"] as String?).flatMap({ LocalDay($0) })
            else { return nil }
            return first...last
        }
    }
}
