/// Reads a Loop Habit Tracker backup (`.db`). The backup is an SQLite file, and only the SQLite
/// engine reads SQLite (`SQLiteLoopBackupReader`, in MorningProofSQLite): the import service takes a
/// reader, so that this module stays plain values and no store reads files for it.
public protocol LoopBackupReader: Sendable {
    /// The habits of the backup in the file at `path` (opened read-only), handed over one at a time
    /// with their entries (`LoopImport.stream`), so that an import never holds the whole file's;
    /// `label` names it in messages and warnings. A file that is not such a backup is a data error.
    func habits(path: String, label: String, context: ImportContext) throws -> ImportStream
}
