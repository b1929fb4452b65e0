import GRDB

extension AppDatabase {
    /// Every schema change, in order. Never edit a migration that has landed: add a new one.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-habits-entries") { db in
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
            try db.create(table: "habit") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique().collate(.nocase)
                t.column("kind", .text).notNull()
                    .check(sql: "kind IN ('manual', 'photo', 'metric', 'checkin')")
                t.column("schedule", .text).notNull()
                t.column("remindAt", .integer)
                t.column("required", .boolean).notNull().defaults(to: false)
                t.column("note", .text)
                t.column("archived", .boolean).notNull().defaults(to: false)
                t.column("goalMetric", .text)
                t.column("goalComparison", .text).check(sql: "goalComparison IN ('atLeast', 'atMost')")
                t.column("goalTarget", .double)
                t.column("goalActivity", .text)
                t.column("createdDay", .text).notNull()
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(table: "entry") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("habit", onDelete: .cascade).notNull()
                t.column("day", .text).notNull()
                t.column("status", .text).notNull().check(sql: "status IN ('done', 'skipped')")
                t.column("value", .double)
                t.column("source", .text).notNull()
                t.column("note", .text)
                t.column("recordedAt", .datetime).notNull()
                t.column("zone", .text).notNull()
                t.uniqueKey(["habitId", "day"])
            }
            // Covers the streak reads (habit, day, status), so they scan a narrow index, not the rows.
            try db.create(index: "entry_on_habitId_day_status", on: "entry", columns: ["habitId", "day", "status"])
            try db.create(table: "zoneChange") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("at", .datetime).notNull()
                t.column("fromZone", .text).notNull()
                t.column("fromDayStart", .integer).notNull()
                t.column("toZone", .text).notNull()
                t.column("toDayStart", .integer).notNull()
            }
        }
        migrator.registerMigration("v2-metrics") { db in
            try MetricSchema.create(db)
        }
        migrator.registerMigration("v3-notifications") { db in
            // The once-a-day claim of each notification: UNIQUE(key, day) decides who delivers.
            try db.create(table: "notification") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("key", .text).notNull()
                t.column("day", .text).notNull()
                t.column("event", .text).notNull()
                t.column("state", .text).notNull().check(sql: "state IN ('claimed', 'delivered', 'failed')")
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("lastError", .text)
                t.column("claimToken", .text)
                t.column("claimedAt", .datetime)
                t.column("deliveredAt", .datetime)
                t.column("createdAt", .datetime).notNull()
                t.uniqueKey(["key", "day"])
            }
            try db.create(index: "notification_on_day", on: "notification", columns: ["day"])
        }
        migrator.registerMigration("v4-checkin-gate") { db in
            // A check-in answer per habit and day; a yes also has a done entry, a no has none.
            try db.create(table: "checkinAnswer") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("habit", onDelete: .cascade).notNull()
                t.column("day", .text).notNull()
                t.column("answer", .text).notNull().check(sql: "answer IN ('yes', 'no')")
                t.column("answeredAt", .datetime).notNull()
                t.column("zone", .text).notNull()
                t.uniqueKey(["habitId", "day"])
            }
            // Each `gate unlock`: the day it opens the gate for, when, and why.
            try db.create(table: "gateUnlock") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("day", .text).notNull().unique()
                t.column("at", .datetime).notNull()
                t.column("reason", .text).notNull()
            }
        }
        migrator.registerMigration("v5-photo-evidence") { db in
            // What a photo proof rests on; refused duplicates are found by sha256 and perceptualHash.
            try db.create(table: "evidence") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("entryId", .integer).notNull().indexed()
                    .references("entry", onDelete: .cascade)
                t.column("sha256", .text).notNull().indexed()
                t.column("perceptualHash", .integer).notNull()
                t.column("captureTime", .text)
                t.column("verdict", .text).notNull()
                t.column("confidence", .double).notNull()
                t.column("features", .text).notNull()
                t.column("recordedAt", .datetime).notNull()
            }
        }
        migrator.registerMigration("v6-accounts") { db in
            try AccountSchema.create(db)
        }
        migrator.registerMigration("v7-account-owned") { db in
            try AccountSchema.ownRows(db)
        }
        migrator.registerMigration("v8-habit-state") { db in
            try HabitStateSchema.create(db)
        }
        migrator.registerMigration("v9-metric-accounts") { db in
            try MetricAccountSchema.create(db)
        }
        migrator.registerMigration("v10-token-scope") { db in
            // What a token may do: "metrics" tokens only post metrics (TokenService's rule).
            try db.execute(
                sql:
                    "ALTER TABLE api_token ADD COLUMN scope TEXT NOT NULL DEFAULT 'full' CHECK (scope IN ('full', 'metrics'))"
            )
        }
        migrator.registerMigration("v11-notification-channels") { db in
            try NotificationChannelSchema.create(db)
        }
        migrator.registerMigration("v12-entry-changes") { db in
            try EntryChangeSchema.create(db)
        }
        migrator.registerMigration("v13-habit-position") { db in
            // The order a person set (`setHabitOrder`); NULL for a habit never placed, listed last.
            try db.execute(sql: "ALTER TABLE habit ADD COLUMN position INTEGER")
        }
        migrator.registerMigration("v14-reference-photos") { db in
            try ReferencePhotoSchema.create(db)
        }
        migrator.registerMigration("v15-account-care") { db in
            try AccountCareSchema.create(db)
        }
        migrator.registerMigration("v16-gate-scopes") { db in
            try GateTokenSchema.widenScopes(db)
        }
        migrator.registerMigration("v17-proof-scenes") { db in
            try ProofSceneSchema.create(db)
        }
        migrator.registerMigration("v18-passkeys") { db in
            try PasskeySchema.create(db)
        }
        migrator.registerMigration("v19-sealed-challenges") { db in
            try PasskeySchema.sealChallenges(db)
        }
        migrator.registerMigration("v20-account-keys") { db in
            try AccountKeySchema.addKeys(db)
        }
        migrator.registerMigration("v21-upload-staging") { db in
            try MetricUploadStagingSchema.create(db)
        }
        return migrator
    }()
}
