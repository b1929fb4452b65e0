import GRDB

/// The tables of migration "v21-upload-staging": an upload's rows staged before it is published (issue 38,
/// `MetricUploadStore`). Part of a landed migration once it lands: never edit, add a new one.
///
/// Each row carries its upload's `uploadId` (a random number per upload); the UNIQUE keys are the
/// stored tables' keys within one upload, so that a record sent twice in one upload is staged once.
/// They hold rows only while an upload is being stored: the upload removes its own, and a server
/// that opens the file removes what a killed one left (`AppDatabase.openShared`).
enum MetricUploadStagingSchema {
    static func create(_ db: Database) throws {
        // A sample and a period's running total have the same columns; a sample's value is in its key.
        for (table, key) in [("metricUploadSample", ["value"]), ("metricUploadBucket", [])] {
            try db.create(table: table) { t in
                t.column("uploadId", .integer).notNull()
                t.column("metric", .text).notNull()
                t.column("source", .text).notNull()
                t.column("start", .double).notNull()
                t.column("end", .double).notNull()
                t.column("value", .double).notNull()
                t.column("day", .text).notNull()
                t.uniqueKey(["uploadId", "metric", "source", "start", "end"] + key)
            }
        }
        try db.create(table: "metricUploadInterval") { t in
            t.column("uploadId", .integer).notNull()
            t.column("kind", .text).notNull()
            t.column("source", .text).notNull()
            t.column("start", .double).notNull()
            t.column("end", .double).notNull()
            t.column("activity", .text).notNull()
            t.column("minutes", .double).notNull()
            t.column("day", .text).notNull()
            t.uniqueKey(["uploadId", "kind", "source", "start", "end", "activity"])
        }
    }

    /// The staging tables, for removing an upload's rows.
    static let tables = ["metricUploadSample", "metricUploadBucket", "metricUploadInterval"]
}
