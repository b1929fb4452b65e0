// The stores that the use cases take together, by what they compose: every one of them is
// served by both engines but `CheckPassStore`, whose watched files only SQLite keeps.

/// Everything one account's habits hang on: what the habit, entry, report, chart, proof, check-in,
/// quote and gate use cases take.
public typealias AccountData = HabitStore & EntryStore & ProofStore & CheckinStore & GateStore & SettingsStore
    & MetricStore & ExcuseStore & ReferencePhotoStore & ExcusedSkipStore & ProofSceneStore
    & RequiredHabitStore

/// What an account's metric ingest (`POST /api/metrics`, `metrics import`) reads and writes: the
/// metrics, the habits whose goals they meet, and the `goal.met` claims made with their entries;
/// with the account's notification channels, it is everything the server reaches per account.
public typealias PerAccountStore = AccountData & MetricImportStore & NotificationStore & NotificationChannelStore
    & MetricUploadStore

/// What the check pass (`check`, `watch`) reads and writes: the habits, their goals' metrics, the
/// watched files, and the notifications it claims and delivers (what an ingest does, and more).
/// Served by SQLite, which keeps the watched files of the CLI's `source add`.
public typealias CheckPassStore = PerAccountStore & WatchedFileStore
