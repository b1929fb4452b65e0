import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract

/// Flags every command shares.
public struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(DatabaseLocation.optionHelp, valueName: "path"))
    var databasePath: String?

    @Option(
        help: ArgumentHelp(
            "Act as if it were this moment: ISO 8601 with an offset or Z, e.g. 2026-03-08T07:30:00-05:00 (default: MORNINGPROOF_NOW, else the real time).",
            valueName: "instant"))
    var now: String?

    @Flag(help: "Print JSON for scripts instead of text.")
    var json = false

    public init() {}

    /// The moment the command acts at.
    func instant() throws -> Date {
        let text = now ?? ProcessInfo.processInfo.environment["MORNINGPROOF_NOW"]
        guard let text, !text.isEmpty else { return Date() }
        return try ISOInstant.read(text, field: now == nil ? "MORNINGPROOF_NOW" : "--now")
    }

    /// Opens the database and reads the clock: everything a command needs to act.
    func session() async throws -> Session {
        let now = try instant()
        var database = try AppDatabase.open(path: DatabaseLocation.resolve(explicit: databasePath))
        database.stateRebuildFailed = { error in
            Console.error("warning: the habits' saved progress could not be brought up to date (\(error.message)); answers stay right, and the next command tries again")
        }
        let clock = try await database.clock()
        return Session(database: database, clock: clock, now: now, json: json)
    }
}

/// An open database with the clock and the moment a command acts at.
struct Session {
    let database: AppDatabase
    let clock: DayClock
    let now: Date
    let json: Bool

    var today: LocalDay { clock.day(at: now) }

    /// Resolves a day argument: `YYYY-MM-DD`, `today`, `yesterday` or `-N` (N days ago).
    func day(_ text: String?) throws -> LocalDay {
        guard let text else { return today }
        return try LocalDay.resolve(text, today: today)
    }
}
