/// The tables of migration "v1-schema": the whole logical schema of the SQLite store as its
/// migrations leave it (v1 to v8), table for table. Part of a landed migration once released:
/// never edit it then, add a new migration.
///
/// Names are the SQLite store's, written unquoted as there: PostgreSQL folds them to lower case
/// (`accountId` is stored as `accountid`), so the same SQL text works on both engines, and a copy
/// between them matches columns by name in any case, as SQLite itself does.
///
/// Types: ids are `bigint` identities (`BY DEFAULT`, so a copy can keep them); days are `text`
/// `YYYY-MM-DD` as in SQLite, so both engines store and compare days alike; instants are
/// `timestamptz`; reals `double precision`. JSON (a daily update's metrics, a proof's features)
/// is `text`, not `jsonb`: it is kept byte for byte as the client sent it and as SQLite keeps it,
/// and `jsonb` would refuse a `\u0000` that JSON allows. Nothing queries inside it yet.
///
/// "Case-insensitive" is SQLite's `COLLATE NOCASE`, which folds ASCII letters only:
/// `lower(x COLLATE "C")` folds exactly those, whatever the database's locale.
///
/// SQLite's `habitState` and `habitStateDirty` cache and their triggers came later: `v6`.
enum PostgresSchema {
    static let v1 = accountTables + habitTables + metricTables

    /// The sign-in throttle's failed attempts, shared by every server on the database (SQLite's
    /// server keeps them in memory: it is one process). Not copied by `db copy`: nothing to copy.
    static let v2: [String] = [
        "CREATE TABLE signInFailure (key text NOT NULL, at timestamptz NOT NULL)",
        "CREATE INDEX signInFailure_key_at ON signInFailure (key, at)",
    ]

    /// Sign-in and sign-up attempts, counted before the password is checked (a success deletes its
    /// own by `id`): they replace the failures of v2, which were counted after the check.
    static let v3: [String] = [
        "DROP TABLE signInFailure",
        "CREATE TABLE signInAttempt (id text NOT NULL, key text NOT NULL, at timestamptz NOT NULL)",
        "CREATE INDEX signInAttempt_key_at ON signInAttempt (key, at)",
        "CREATE INDEX signInAttempt_at ON signInAttempt (at)",
        "CREATE INDEX signInAttempt_id ON signInAttempt (id)",
    ]

    /// Every account's metrics are its own (SQLite's "v9-metric-accounts"): the metric tables gain
    /// `accountId` (what was stored is the owner's) and their keys start with it; `metricBucket`
    /// keeps the largest running total sent for a period, `metricDayMark` the days whose goals are
    /// not judged since their data changed; notifications gain their account.
    static let v4: [String] = [
        "ALTER TABLE metricSample ADD COLUMN accountId bigint NOT NULL DEFAULT 1 REFERENCES account (id) ON DELETE CASCADE",
        "ALTER TABLE metricSample ALTER COLUMN accountId DROP DEFAULT",
        "ALTER TABLE metricSample DROP CONSTRAINT metricsample_metric_source_start_end_value_key",
        #"ALTER TABLE metricSample ADD UNIQUE (accountId, metric, source, start, "end", value)"#,
        "ALTER TABLE metricDaily ADD COLUMN accountId bigint NOT NULL DEFAULT 1 REFERENCES account (id) ON DELETE CASCADE",
        "ALTER TABLE metricDaily ALTER COLUMN accountId DROP DEFAULT",
        "ALTER TABLE metricDaily DROP CONSTRAINT metricdaily_pkey",
        "ALTER TABLE metricDaily ADD PRIMARY KEY (accountId, metric, day, source, origin)",
        "DROP INDEX metricDaily_day",
        "CREATE INDEX metricDaily_on_accountId_day ON metricDaily (accountId, day)",
        "ALTER TABLE metricInterval ADD COLUMN accountId bigint NOT NULL DEFAULT 1 REFERENCES account (id) ON DELETE CASCADE",
        "ALTER TABLE metricInterval ALTER COLUMN accountId DROP DEFAULT",
        "ALTER TABLE metricInterval DROP CONSTRAINT metricinterval_kind_source_start_end_activity_key",
        #"ALTER TABLE metricInterval ADD UNIQUE (accountId, kind, source, start, "end", activity)"#,
        "DROP INDEX metricInterval_day",
        "CREATE INDEX metricInterval_on_accountId_kind_day ON metricInterval (accountId, kind, day)",
        """
        CREATE TABLE metricBucket (
            accountId bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
            metric text NOT NULL,
            source text NOT NULL,
            start double precision NOT NULL,
            "end" double precision NOT NULL,
            value double precision NOT NULL,
            day text NOT NULL,
            PRIMARY KEY (accountId, metric, source, start, "end")
        )
        """,
        """
        CREATE TABLE metricDayMark (
            accountId bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
            day text NOT NULL,
            mark bigint NOT NULL,
            PRIMARY KEY (accountId, day)
        )
        """,
        // As in SQLite, which cannot add a column with a foreign key and a default.
        "ALTER TABLE notification ADD COLUMN accountId bigint NOT NULL DEFAULT 1",
        "CREATE INDEX notification_on_accountId_day ON notification (accountId, day)",
    ]

    /// What a token may do (SQLite's "v10-token-scope"): "metrics" tokens only post metrics.
    static let v5: [String] = [
        "ALTER TABLE api_token ADD COLUMN scope text NOT NULL DEFAULT 'full' CHECK (scope IN ('full', 'metrics'))"
    ]

    /// Accounts, their tokens, settings, zone changes and daily updates (SQLite's v1, v6 and v7).
    static let accountTables: [String] = [
        // The owner (account 1) exists from the start, as in SQLite, so new accounts start at 2.
        """
        CREATE TABLE account (
            id bigint GENERATED BY DEFAULT AS IDENTITY (START WITH 2) PRIMARY KEY,
            email text,
            passwordHash text,
            timeZone text,
            dayStart integer NOT NULL DEFAULT 0,
            weekStart integer NOT NULL DEFAULT 1,
            createdAt timestamptz NOT NULL
        )
        """,
        #"CREATE UNIQUE INDEX account_on_email ON account (lower(email COLLATE "C"))"#,
        "INSERT INTO account (id, createdAt) VALUES (1, now())",
        // Only a SHA-256 of each token.
        """
        CREATE TABLE api_token (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            accountId bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
            name text NOT NULL,
            tokenHash text NOT NULL UNIQUE,
            createdAt timestamptz NOT NULL,
            expiresAt timestamptz
        )
        """,
        "CREATE INDEX api_token_on_accountId ON api_token (accountId)",
        // One per account and local day: the UNIQUE key, not a read, decides simultaneous requests.
        """
        CREATE TABLE daily_update (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            accountId bigint NOT NULL REFERENCES account (id) ON DELETE CASCADE,
            day text NOT NULL,
            score double precision,
            metrics text NOT NULL,
            recordedAt timestamptz NOT NULL,
            zone text NOT NULL,
            UNIQUE (accountId, day)
        )
        """,
        """
        CREATE TABLE setting (
            accountId bigint NOT NULL DEFAULT 1 REFERENCES account (id) ON DELETE CASCADE,
            key text NOT NULL,
            value text NOT NULL,
            PRIMARY KEY (accountId, key)
        )
        """,
        // SQLite could not add this column with a foreign key; PostgreSQL can.
        """
        CREATE TABLE zoneChange (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            at timestamptz NOT NULL,
            fromZone text NOT NULL,
            fromDayStart integer NOT NULL,
            toZone text NOT NULL,
            toDayStart integer NOT NULL,
            accountId bigint NOT NULL DEFAULT 1 REFERENCES account (id) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX zoneChange_on_accountId_at ON zoneChange (accountId, at)",
    ]

    /// Habits and what hangs on them: entries, check-in answers, photo evidence, notifications and
    /// gate unlocks (SQLite's v1, v3, v4, v5 and v7).
    static let habitTables: [String] = [
        """
        CREATE TABLE habit (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            accountId bigint NOT NULL DEFAULT 1 REFERENCES account (id) ON DELETE CASCADE,
            name text NOT NULL,
            kind text NOT NULL CHECK (kind IN ('manual', 'photo', 'metric', 'checkin')),
            schedule text NOT NULL,
            remindAt integer,
            required boolean NOT NULL DEFAULT false,
            note text,
            archived boolean NOT NULL DEFAULT false,
            goalMetric text,
            goalComparison text CHECK (goalComparison IN ('atLeast', 'atMost')),
            goalTarget double precision,
            goalActivity text,
            createdDay text NOT NULL,
            createdAt timestamptz NOT NULL
        )
        """,
        #"CREATE UNIQUE INDEX habit_on_accountId_name ON habit (accountId, lower(name COLLATE "C"))"#,
        """
        CREATE TABLE entry (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            habitId bigint NOT NULL REFERENCES habit (id) ON DELETE CASCADE,
            day text NOT NULL,
            status text NOT NULL CHECK (status IN ('done', 'skipped')),
            value double precision,
            source text NOT NULL,
            note text,
            recordedAt timestamptz NOT NULL,
            zone text NOT NULL,
            UNIQUE (habitId, day)
        )
        """,
        "CREATE INDEX entry_on_habitId_day_status ON entry (habitId, day, status)",
        """
        CREATE TABLE checkinAnswer (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            habitId bigint NOT NULL REFERENCES habit (id) ON DELETE CASCADE,
            day text NOT NULL,
            answer text NOT NULL CHECK (answer IN ('yes', 'no')),
            answeredAt timestamptz NOT NULL,
            zone text NOT NULL,
            UNIQUE (habitId, day)
        )
        """,
        """
        CREATE TABLE gateUnlock (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            accountId bigint NOT NULL DEFAULT 1 REFERENCES account (id) ON DELETE CASCADE,
            day text NOT NULL,
            at timestamptz NOT NULL,
            reason text NOT NULL,
            UNIQUE (accountId, day)
        )
        """,
        """
        CREATE TABLE evidence (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            entryId bigint NOT NULL REFERENCES entry (id) ON DELETE CASCADE,
            sha256 text NOT NULL,
            perceptualHash bigint NOT NULL,
            captureTime text,
            verdict text NOT NULL,
            confidence double precision NOT NULL,
            features text NOT NULL,
            recordedAt timestamptz NOT NULL
        )
        """,
        "CREATE INDEX evidence_on_entryId ON evidence (entryId)",
        "CREATE INDEX evidence_on_sha256 ON evidence (sha256)",
        // The once-a-day claim of each notification: UNIQUE (key, day) decides who delivers.
        """
        CREATE TABLE notification (
            id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            key text NOT NULL,
            day text NOT NULL,
            event text NOT NULL,
            state text NOT NULL CHECK (state IN ('claimed', 'delivered', 'failed')),
            attempts integer NOT NULL DEFAULT 0,
            lastError text,
            claimToken text,
            claimedAt timestamptz,
            deliveredAt timestamptz,
            createdAt timestamptz NOT NULL,
            UNIQUE (key, day)
        )
        """,
        "CREATE INDEX notification_on_day ON notification (day)",
    ]

    /// The metric tables (SQLite's "v2-metrics"): the owner's, as in SQLite, keyed by metric and source.
    static let metricTables: [String] = [
        "CREATE TABLE metricSource (path text PRIMARY KEY, addedAt timestamptz NOT NULL)",
        """
        CREATE TABLE watchedFile (
            path text PRIMARY KEY,
            size bigint NOT NULL,
            mtime double precision NOT NULL,
            inode bigint NOT NULL,
            headFingerprint text NOT NULL,
            resumeOffset bigint NOT NULL DEFAULT 0,
            resumeLine bigint NOT NULL DEFAULT 0,
            complete boolean NOT NULL DEFAULT true,
            format text NOT NULL,
            readAt timestamptz NOT NULL
        )
        """,
        // `end` is a reserved word in PostgreSQL, so it is quoted here (as GRDB quotes it in SQLite).
        """
        CREATE TABLE metricSample (
            metric text NOT NULL,
            source text NOT NULL,
            start double precision NOT NULL,
            "end" double precision NOT NULL,
            value double precision NOT NULL,
            day text NOT NULL,
            UNIQUE (metric, source, start, "end", value)
        )
        """,
        """
        CREATE TABLE metricDaily (
            metric text NOT NULL,
            day text NOT NULL,
            source text NOT NULL,
            origin text NOT NULL CHECK (origin IN ('samples', 'export')),
            value double precision NOT NULL,
            count bigint NOT NULL,
            exportDate double precision,
            PRIMARY KEY (metric, day, source, origin)
        )
        """,
        "CREATE INDEX metricDaily_day ON metricDaily (day)",
        """
        CREATE TABLE metricInterval (
            kind text NOT NULL CHECK (kind IN ('sleep', 'sleepTotal', 'workout')),
            source text NOT NULL,
            start double precision NOT NULL,
            "end" double precision NOT NULL,
            activity text NOT NULL DEFAULT '',
            minutes double precision NOT NULL,
            day text NOT NULL,
            UNIQUE (kind, source, start, "end", activity)
        )
        """,
        "CREATE INDEX metricInterval_day ON metricInterval (kind, day)",
    ]
}
