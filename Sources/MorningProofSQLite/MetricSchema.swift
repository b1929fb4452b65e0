import GRDB

/// The tables of migration "v2-metrics". Part of a landed migration: never edit, add a new one.
///
/// - `metricSample`: one row per sample read from a sample file (CSV, JSON Lines, Health Auto
///   Export); its UNIQUE key (metric, source, start, end, value) is what makes a re-read or an
///   overlapping file count nothing twice.
/// - `metricDaily`: per (metric, day, source, origin) totals of cumulative metrics. Origin
///   `samples` is the running sum of `metricSample` rows; origin `export` is the total an Apple
///   Health export gave for that day, REPLACED by the next complete export read (a snapshot of
///   the whole history) rather than added to.
/// - `metricInterval`: sleep intervals, aggregated sleep nights and workouts, unique per
///   (kind, source, start, end, activity); totals are computed from them when asked.
/// - `metricSource`: the paths `source add` watches; `watchedFile`: what was last read of each file.
enum MetricSchema {
    static func create(_ db: Database) throws {
        try db.create(table: "metricSource") { t in
            t.primaryKey("path", .text)
            t.column("addedAt", .datetime).notNull()
        }
        try db.create(table: "watchedFile") { t in
            t.primaryKey("path", .text)
            t.column("size", .integer).notNull()
            t.column("mtime", .double).notNull()
            t.column("inode", .integer).notNull()
            t.column("headFingerprint", .text).notNull()
            t.column("resumeOffset", .integer).notNull().defaults(to: 0)
            t.column("resumeLine", .integer).notNull().defaults(to: 0)
            t.column("complete", .boolean).notNull().defaults(to: true)
            t.column("format", .text).notNull()
            t.column("readAt", .datetime).notNull()
        }
        try db.create(table: "metricSample") { t in
            t.column("metric", .text).notNull()
            t.column("source", .text).notNull()
            t.column("start", .double).notNull()
            t.column("end", .double).notNull()
            t.column("value", .double).notNull()
            t.column("day", .text).notNull()
            t.uniqueKey(["metric", "source", "start", "end", "value"])
        }
        try db.create(table: "metricDaily", options: .withoutRowID) { t in
            t.column("metric", .text).notNull()
            t.column("day", .text).notNull()
            t.column("source", .text).notNull()
            t.column("origin", .text).notNull().check(sql: "origin IN ('samples', 'export')")
            t.column("value", .double).notNull()
            t.column("count", .integer).notNull()
            t.column("exportDate", .double)
            t.primaryKey(["metric", "day", "source", "origin"])
        }
        try db.create(index: "metricDaily_day", on: "metricDaily", columns: ["day"])
        try db.create(table: "metricInterval") { t in
            t.column("kind", .text).notNull().check(sql: "kind IN ('sleep', 'sleepTotal', 'workout')")
            t.column("source", .text).notNull()
            t.column("start", .double).notNull()
            t.column("end", .double).notNull()
            t.column("activity", .text).notNull().defaults(to: "")
            t.column("minutes", .double).notNull()
            t.column("day", .text).notNull()
            t.uniqueKey(["kind", "source", "start", "end", "activity"])
        }
        try db.create(index: "metricInterval_day", on: "metricInterval", columns: ["kind", "day"])
    }
}

/// Migration "v9-metric-accounts": every account has metrics of its own (the phone's, posted to
/// the server), so the three metric tables gain `accountId` (what was stored is the owner's) and
/// their keys start with it. Two tables are new:
/// - `metricBucket`: running totals of a period (`MetricSampleRow.isBucket`, Health Auto Export's
///   day or hour of steps so far), one row per (account, metric, source, start, end) holding the
///   largest value sent; its day's `samples` total grows by what a larger resend adds.
/// - `metricDayMark`: the days whose metric data changed and whose goals are not judged since;
///   `mark` grows with each change, so that a judgement clears only the marks it saw.
/// Notifications gain `accountId`, for listing one account's. Part of a landed migration once it
/// lands: never edit, add a new one.
enum MetricAccountSchema {
    static func create(_ db: Database) throws {
        try AccountSchema.rebuild(db, "metricSample", columns: ["metric", "source", "start", "end", "value", "day"]) {
            t in
            t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
            t.column("metric", .text).notNull()
            t.column("source", .text).notNull()
            t.column("start", .double).notNull()
            t.column("end", .double).notNull()
            t.column("value", .double).notNull()
            t.column("day", .text).notNull()
            t.uniqueKey(["accountId", "metric", "source", "start", "end", "value"])
        }
        try db.drop(index: "metricDaily_day")
        try AccountSchema.rebuild(
            db, "metricDaily", columns: ["metric", "day", "source", "origin", "value", "count", "exportDate"]
        ) { t in
            t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
            t.column("metric", .text).notNull()
            t.column("day", .text).notNull()
            t.column("source", .text).notNull()
            t.column("origin", .text).notNull().check(sql: "origin IN ('samples', 'export')")
            t.column("value", .double).notNull()
            t.column("count", .integer).notNull()
            t.column("exportDate", .double)
            t.primaryKey(["accountId", "metric", "day", "source", "origin"])
        }
        try db.create(index: "metricDaily_on_accountId_day", on: "metricDaily", columns: ["accountId", "day"])
        try db.drop(index: "metricInterval_day")
        try AccountSchema.rebuild(
            db, "metricInterval", columns: ["kind", "source", "start", "end", "activity", "minutes", "day"]
        ) { t in
            t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
            t.column("kind", .text).notNull().check(sql: "kind IN ('sleep', 'sleepTotal', 'workout')")
            t.column("source", .text).notNull()
            t.column("start", .double).notNull()
            t.column("end", .double).notNull()
            t.column("activity", .text).notNull().defaults(to: "")
            t.column("minutes", .double).notNull()
            t.column("day", .text).notNull()
            t.uniqueKey(["accountId", "kind", "source", "start", "end", "activity"])
        }
        try db.create(
            index: "metricInterval_on_accountId_kind_day", on: "metricInterval", columns: ["accountId", "kind", "day"])
        try db.create(table: "metricBucket", options: .withoutRowID) { t in
            t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
            t.column("metric", .text).notNull()
            t.column("source", .text).notNull()
            t.column("start", .double).notNull()
            t.column("end", .double).notNull()
            t.column("value", .double).notNull()
            t.column("day", .text).notNull()
            t.primaryKey(["accountId", "metric", "source", "start", "end"])
        }
        try db.create(table: "metricDayMark", options: .withoutRowID) { t in
            t.column("accountId", .integer).notNull().references("account", onDelete: .cascade)
            t.column("day", .text).notNull()
            t.column("mark", .integer).notNull()
            t.primaryKey(["accountId", "day"])
        }
        try db.alter(table: "notification") { t in
            t.add(column: "accountId", .integer).notNull().defaults(to: 1)
        }
        try db.create(index: "notification_on_accountId_day", on: "notification", columns: ["accountId", "day"])
    }
}
