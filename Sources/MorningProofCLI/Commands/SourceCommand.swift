import ArgumentParser
import Foundation
import HealthMetrics
import MorningProofCore
import MorningProofService
import MorningProofSQLite
import MorningProofStoreContract

/// `morningproof source ...`: the metrics files and folders that `check` and `watch` read.
struct SourceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "source",
        abstract: "Watch metrics files or folders: add, list, remove.",
        discussion: """
            A watched file is read again only when it changes (size, modification time or inode); \
            an appended CSV or JSON Lines file resumes after its last complete line. A folder's \
            recognised files (Apple Health export.xml or export.zip, Health Auto Export JSON, CSV, \
            JSON Lines, told apart by content) are all read; other files in it are ignored.
            Examples:
              morningproof source add ~/Sync/Health/export.zip
              morningproof source add ~/Sync/HealthAutoExport/
              morningproof source list
              morningproof source remove ~/Sync/Health/export.zip
            """,
        subcommands: [Add.self, List.self, Remove.self],
        defaultSubcommand: List.self
    )

    /// An absolute, standardised path, so that one file is one source whatever the working folder.
    static func absolute(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let url =
            expanded.hasPrefix("/")
            ? URL(fileURLWithPath: expanded)
            : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(expanded)
        var text = url.standardizedFileURL.path
        while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
        return text
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Watch a metrics file, or a folder of them.",
            discussion: "The path must exist now. Example: morningproof source add ~/Health/export.zip")

        @Argument(help: "A metrics file or a folder.")
        var path: String

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let path = SourceCommand.absolute(self.path)
            try SourceScanner.checkSource(path)  // before the database is opened: a bad path creates nothing
            let session = try await global.session()
            let added = try await SourceScanner(database: session.database, clock: session.clock)
                .addSource(path, now: session.now)
            if session.json { return try Console.json(["path": path, "added": added ? "yes" : "already watched"]) }
            Console.out(added ? "Watching \(path)" : "Already watching \(path)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List watched files and folders.")

        @OptionGroup var global: GlobalOptions

        struct SourceJSON: Encodable {
            var path: String
            var kind: String
            var exists: Bool
            var lastRead: String?
        }

        func run() async throws {
            let session = try await global.session()
            let files = try await session.database.watchedFiles()
            let sources = try await session.database.metricSources().map { path -> SourceJSON in
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
                let read = files.values.filter { $0.path == path || $0.path.hasPrefix(path + "/") }
                    .map(\.readAt).max()
                return SourceJSON(
                    path: path, kind: isDirectory.boolValue ? "folder" : "file", exists: exists,
                    lastRead: read.map { ISOInstant.format($0, in: session.clock.timeZone) })
            }
            if session.json { return try Console.json(["sources": sources]) }
            if sources.isEmpty { return Console.out("No watched sources. Add one: morningproof source add PATH") }
            for source in sources {
                var line = "\(source.path) (\(source.kind))"
                if !source.exists { line += "  missing" }
                line += source.lastRead.map { "  last read \($0)" } ?? "  not read yet"
                Console.out(line)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Stop watching a file or folder (the totals already read stay).")

        @Argument(help: "The path as added.")
        var path: String

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let path = SourceCommand.absolute(self.path)
            try await SourceScanner(database: session.database, clock: session.clock).removeSource(path)
            if session.json { return try Console.json(["path": path, "removed": "yes"]) }
            Console.out("Stopped watching \(path)")
        }
    }
}
