import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofSQLite
import MorningProofStoreContract

/// `morningproof-server db copy`: moves a SQLite database into PostgreSQL.
struct DatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db", abstract: "Move a database between engines.", subcommands: [Copy.self])

    struct Copy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy a SQLite database (the CLI's, with every account) into an empty PostgreSQL database.",
            discussion: """
                Everything moves in one transaction: accounts, tokens, habits, entries, photo evidence, \
                check-ins, daily updates, settings, notifications and metrics. The PostgreSQL database is \
                created or migrated first and must hold nothing else; the SQLite file is only read. Each \
                table's rows are counted on both sides, and the copy commits only when they agree. \
                Example: morningproof-server db copy --db ~/.local/share/morningproof/morningproof.sqlite \
                --to postgres://morningproof@127.0.0.1:5432/morningproof
                """)

        @Option(
            name: .customLong("db"),
            help: ArgumentHelp("The SQLite file to copy (default: MORNINGPROOF_DB, else the CLI's).", valueName: "path")
        )
        var path: String?

        @Option(
            name: .customLong("to"),
            help: ArgumentHelp(
                "The PostgreSQL database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.", valueName: "url"))
        var url: String

        func run() async throws {
            try await ServerCommand.reporting {
                let path = DatabaseLocation.resolve(explicit: self.path)
                // Opening a missing file would create an empty database: a copy needs one that exists.
                guard FileManager.default.fileExists(atPath: path) else {
                    throw StoreError(.missingFile, value: path, "\(path): no such database file")
                }
                let dump = try AppDatabase.open(path: path).dump()
                let target = try PostgresStore(url: url, poolSize: 1)
                let counts = try await target.whileRunning { try await target.copy(dump, from: path) }
                print("Copied \(path) into PostgreSQL at \(target.url) in one transaction:")
                print(
                    String(repeating: " ", count: 2) + "table".padding(toLength: 18, withPad: " ", startingAt: 0)
                        + "SQLite  PostgreSQL")
                for count in counts {
                    let name = count.table.padding(toLength: 18, withPad: " ", startingAt: 0)
                    print("  \(name)\(String(count.source).leftPadded(6))  \(String(count.copied).leftPadded(10))")
                }
                let total = counts.reduce(0) { $0 + $1.copied }
                print("\(total) rows; every table holds as many rows as the source.")
                if dump.ownerZoneFromSystem, let zone = dump.owner.timeZone {
                    print(
                        "The CLI had no time zone set and counted the owner's days in this machine's, \(zone): "
                            + "the owner's zone is now \(zone) (change it with PATCH /api/auth/profile).")
                }
            }
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
