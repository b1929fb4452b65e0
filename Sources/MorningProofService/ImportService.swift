import Foundation
import MorningProofCore
import MorningProofInterchange
import MorningProofStoreContract
import ZIPFoundation

/// Where an import reads from.
public enum ImportSource: Sendable, Equatable {
    /// A Loop Habit Tracker backup (`.db`), or its CSV export (a `.zip`, or the folder it unzips to).
    case loop(String)
    /// A harsh folder holding `habits` and `log`.
    case harsh(String)
    /// An export of MorningProof (`morningproof export`).
    case json(String)

    public var path: String {
        switch self {
        case .loop(let path), .harsh(let path), .json(let path): path
        }
    }
}

/// Imports from Loop Habit Tracker, harsh and our own export: a dry run by default, or applied in one
/// transaction. Every front end imports through here.
public struct ImportService: Sendable {
    public let database: any InterchangeStore
    public let clock: DayClock
    /// Reads Loop's backup files (`.db`, SQLite): MorningProofSQLite's `SQLiteLoopBackupReader`.
    public let loopBackupReader: any LoopBackupReader

    public init(database: any InterchangeStore, clock: DayClock, loopBackupReader: any LoopBackupReader) {
        self.database = database
        self.clock = clock
        self.loopBackupReader = loopBackupReader
    }

    /// Refuses a source that is missing (no input) or of the wrong kind (a data error) before anything
    /// is opened, so that a bad argument changes nothing, not even the database file.
    public static func check(_ source: ImportSource) async throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory) else {
            throw MorningProofError.noInput("\(source.path): no such file or folder")
        }
        switch source {
        case .harsh(let folder):
            guard isDirectory.boolValue else {
                throw MorningProofError.dataError("\(folder) is not a folder (harsh keeps habits and log in one)")
            }
            for name in ["habits", "log"] where !FileManager.default.fileExists(atPath: folder + "/" + name) {
                throw MorningProofError.noInput("\(folder)/\(name): no such file (a harsh folder holds habits and log)")
            }
        case .json(let file):
            guard !isDirectory.boolValue else {
                throw MorningProofError.dataError("\(file) is a folder, not an export file")
            }
            let first = try head(file).first { !Character(UnicodeScalar($0)).isWhitespace }
            guard first == UInt8(ascii: "{") else {
                throw MorningProofError.dataError("\(file): not a MorningProof export (not a JSON object)")
            }
        case .loop(let file):
            let kind = isDirectory.boolValue ? nil : LoopFileKind(head: try head(file))
            guard isDirectory.boolValue || kind != nil else {
                throw MorningProofError.dataError(
                    "\(file): not a Loop Habit Tracker backup (.db) or CSV export (.zip or its folder)")
            }
        }
    }

    /// The first bytes of a file, enough to tell its kind.
    static func head(_ path: String) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MorningProofError.ioError("\(path): cannot read")
        }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 64)) ?? Data()
    }

    /// Reads `source` and plans it against the database; with `apply`, stores it in one transaction
    /// (all or nothing). With `merge: false` a habit whose name is already taken refuses the whole import.
    /// The files are read on `cpu` when given (a server's pool), else on the caller's task.
    public func run(
        _ source: ImportSource, merge: Bool, apply: Bool, now: Date, cpu: (any CPUWork)? = nil
    ) async throws -> ImportPlan {
        try await Self.check(source)
        let context = ImportContext(now: now, clock: clock)
        let habits = try await Self.reading(on: cpu) {
            let habits = try stream(source, context: context)
            try habits.readAhead(entries: Self.entriesReadAhead)
            return habits
        }
        return try await database.importHabits(habits, merge: merge, apply: apply)
    }

    /// How many entries of a Loop backup are read before the import's transaction begins (about 30 MB):
    /// a file that small is read whole first, so the transaction (SQLite's write lock, which every
    /// other writer waits for) only writes; a larger one is read on, one habit at a time, as it writes.
    static let entriesReadAhead = 200_000

    /// `run` for harsh's two files wherever they are (a server's uploads, each in a folder of its
    /// own), rather than in one folder.
    public func runHarsh(
        habits: String, log: String, merge: Bool, apply: Bool, now: Date, cpu: (any CPUWork)? = nil
    ) async throws -> ImportPlan {
        let context = ImportContext(now: now, clock: clock)
        let batch = try await Self.reading(on: cpu) { try Self.harsh(habits: habits, log: log, context: context) }
        return try await database.importBatch(batch, merge: merge, apply: apply)
    }

    private static func reading<T: Sendable>(
        on cpu: (any CPUWork)?, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        guard let cpu else { return try body() }
        return try await cpu.run(body)
    }

    static func harsh(habits: String, log: String, context: ImportContext) throws -> ImportBatch {
        HarshImport.batch(
            habits: String(decoding: try contents(habits), as: UTF8.self),
            log: String(decoding: try contents(log), as: UTF8.self),
            habitsFile: habits, logFile: log, context: context)
    }

    /// The habits and entries `source` holds, with the rows it could not use.
    public func read(_ source: ImportSource, context: ImportContext) throws -> ImportBatch {
        try stream(source, context: context).batch()
    }

    /// The habits `source` holds, handed over one at a time: a Loop backup's read from its file as
    /// their turn comes, the other files' read whole first.
    func stream(_ source: ImportSource, context: ImportContext) throws -> ImportStream {
        switch source {
        case .json(let path):
            return ImportStream(try ExportDocument.read(try Self.contents(path), file: path))
        case .harsh(let folder):
            return ImportStream(try Self.harsh(habits: folder + "/habits", log: folder + "/log", context: context))
        case .loop(let path):
            return try loopBackup(path, context: context)
        }
    }

    /// A Loop backup from its SQLite file, its CSV export zip, or the folder that zip unzips to.
    func loopBackup(_ path: String, context: ImportContext) throws -> ImportStream {
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        func csv(_ files: [String: Data]) throws -> ImportStream {
            ImportStream(LoopImport.batch(try LoopCSV.backup(files: files, label: path), context: context))
        }
        if isDirectory.boolValue { return try csv(try LoopExportFiles.folder(path)) }
        switch LoopFileKind(head: try Self.head(path)) {
        case .sqlite: return try loopBackupReader.habits(path: path, label: path, context: context)
        case .zip: return try csv(try LoopExportFiles.zip(path))
        case nil:
            throw MorningProofError.dataError(
                "\(path): not a Loop Habit Tracker backup (.db) or CSV export (.zip or its folder)")
        }
    }

    static func contents(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw MorningProofError.ioError("\(path): cannot read (\(error.localizedDescription))")
        }
    }
}

/// What a Loop file is, by its first bytes (never its name).
enum LoopFileKind {
    case sqlite, zip

    init?(head: Data) {
        if head.starts(with: Data("SQLite format 3\0".utf8)) {
            self = .sqlite
        } else if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            self = .zip
        } else {
            return nil
        }
    }
}

/// The files of Loop's CSV export that the import reads (`Habits.csv` and each `NNN Name/Checkmarks.csv`),
/// by their path below the folder holding `Habits.csv`.
enum LoopExportFiles {
    /// The most an export's files may hold once unpacked: far above any real history.
    static let maximumBytes = 256 << 20

    static func folder(_ path: String) throws -> [String: Data] {
        let fileManager = FileManager.default
        let root: String
        if fileManager.fileExists(atPath: path + "/Habits.csv") {
            root = path
        } else if let inner = try? fileManager.contentsOfDirectory(atPath: path).sorted().first(where: {
            fileManager.fileExists(atPath: path + "/" + $0 + "/Habits.csv")
        }) {
            root = path + "/" + inner
        } else {
            throw MorningProofError.dataError("\(path): no Habits.csv (not a Loop Habit Tracker CSV export)")
        }
        var files = ["Habits.csv": try ImportService.contents(root + "/Habits.csv")]
        for name in (try? fileManager.contentsOfDirectory(atPath: root)) ?? [] {
            let checkmarks = root + "/" + name + "/Checkmarks.csv"
            if fileManager.fileExists(atPath: checkmarks) {
                files[name + "/Checkmarks.csv"] = try ImportService.contents(checkmarks)
            }
        }
        return files
    }

    static func zip(_ path: String) throws -> [String: Data] {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw MorningProofError.dataError("\(path): not a readable zip file (\(error))")
        }
        // The export may sit in a folder inside the zip: paths count from the one holding Habits.csv.
        guard let habits = archive.first(where: { $0.path == "Habits.csv" || $0.path.hasSuffix("/Habits.csv") }) else {
            throw MorningProofError.dataError("\(path): no Habits.csv in the zip (not a Loop Habit Tracker CSV export)")
        }
        let prefix = String(habits.path.dropLast("Habits.csv".count))
        var files: [String: Data] = [:]
        var total = 0
        for entry in archive where entry.type == .file && entry.path.hasPrefix(prefix) {
            let relative = String(entry.path.dropFirst(prefix.count))
            guard relative == "Habits.csv" || relative.hasSuffix("/Checkmarks.csv") else { continue }
            total += Int(entry.uncompressedSize)
            guard total <= maximumBytes else {
                throw MorningProofError.dataError("\(path): the export unpacks to more than \(maximumBytes >> 20) MB")
            }
            var data = Data()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
            } catch {
                throw MorningProofError.dataError("\(path): \(entry.path) is damaged (\(error))")
            }
            files[relative] = data
        }
        return files
    }
}
