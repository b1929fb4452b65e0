/// Reads a Loop Habit Tracker backup (`.db`) into a `LoopBackup`. The backup is an SQLite file, and
/// only the SQLite engine reads SQLite (`SQLiteLoopBackupReader`, in MorningProofSQLite): the import
/// service takes a reader, so that this module stays plain values and no store reads files for it.
public protocol LoopBackupReader: Sendable {
    /// The backup in the file at `path`, opened read-only; `label` names it in messages and warnings.
    /// A file that is not such a backup is a data error.
    func read(path: String, label: String) throws -> LoopBackup
}
