import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofInterchange
import MorningProofSQLite
import MorningProofService

/// `morningproof import loop|harsh|json`: bring habits and their history in from another tracker.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring habits and their history in from Loop Habit Tracker, harsh or a MorningProof export.",
        discussion: """
            Every import is a dry run until you add --apply: it lists the habits it would create, the \
            entries and days it would add, and every day that conflicts with one already recorded. \
            --apply writes it all in one transaction, or nothing. A habit whose name is already here \
            is merged into it (the days already recorded here win; the import only adds days); \
            --no-merge refuses the whole import instead. A row that cannot be used is a warning with \
            its file and line, and the rest is imported. Days stay the days they were recorded for.
            Examples:
              morningproof import loop ~/Downloads/Loop\\ Habits\\ Backup\\ 2026-03-09.db
              morningproof import loop "Loop Habits CSV 2026-03-09.zip" --apply
              morningproof import harsh ~/.config/harsh --apply
              morningproof import json habits.json --no-merge --apply
            """,
        subcommands: [Loop.self, Harsh.self, JSON.self])

    struct Options: ParsableArguments {
        @Flag(help: "Write the import, in one transaction (without it: a dry run that writes nothing).")
        var apply = false

        @Flag(help: "Refuse the import when a habit of the same name is already here, instead of merging.")
        var noMerge = false

        @OptionGroup var global: GlobalOptions
    }

    struct Loop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "loop",
            abstract: "Import a Loop Habit Tracker backup (.db) or CSV export (.zip, or its folder).",
            discussion: """
                Loop's frequency becomes the schedule: 1/1 daily, 1/N every N days, K/N K times in any N \
                days (Loop counts rolling windows, not calendar weeks). YES_MANUAL is a done day, SKIP a \
                skipped one; NO, UNKNOWN and YES_AUTO store nothing (the schedule covers those days). A \
                numerical habit's day is done when its amount meets the target (at least / at most); \
                in a health unit (steps) it becomes a metric goal. Archived habits stay archived, and \
                the reminder time is kept.
                Examples:
                  morningproof import loop "Loop Habits Backup 2026-03-09.db"
                  morningproof import loop "Loop Habits CSV 2026-03-09.zip" --apply
                """)

        @Argument(
            help: ArgumentHelp("The backup (.db), the CSV export (.zip) or its unzipped folder.", valueName: "file"))
        var file: String

        @OptionGroup var options: Options

        func run() async throws { try await ImportRun.run(.loop(file), options) }
    }

    struct Harsh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "harsh",
            abstract: "Import harsh's habits and log from its folder (~/.config/harsh).",
            discussion: """
                Frequencies: 1 daily, N every N days, Nw every N weeks, T/I T times in any I days, 0 \
                track only (kept as daily, with a note). y is a done day (its amount and comment kept), \
                s a skipped one, n stores nothing; the later line wins for a repeated day. Headings and \
                end dates become notes; a habit whose end date has passed is archived.
                Example: morningproof import harsh ~/.config/harsh --apply
                """)

        @Argument(help: ArgumentHelp("The folder holding harsh's habits and log files.", valueName: "folder"))
        var folder: String

        @OptionGroup var options: Options

        func run() async throws { try await ImportRun.run(.harsh(folder), options) }
    }

    struct JSON: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "json",
            abstract: "Import a MorningProof export (morningproof export --format json).",
            discussion: """
                Habits keep their kind, schedule, goal, reminder and dates; entries keep their source, \
                note, value, zone and photo evidence. Into an empty database the import gives back \
                exactly what was exported.
                Example: morningproof import json habits.json --apply
                """)

        @Argument(help: ArgumentHelp("The export file.", valueName: "file"))
        var file: String

        @OptionGroup var options: Options

        func run() async throws { try await ImportRun.run(.json(file), options) }
    }
}

/// Runs an import and prints what it would do or did.
enum ImportRun {
    static func run(_ source: ImportSource, _ options: ImportCommand.Options) async throws {
        // A missing or wrong file is refused before the database is opened (or created).
        try await ImportService.check(source)
        let session = try await options.global.session()
        let plan = try await ImportService(
            database: session.database, clock: session.clock, loopBackupReader: SQLiteLoopBackupReader()
        ).run(source, merge: !options.noMerge, apply: options.apply, now: session.now)
        for warning in plan.warnings { Console.error("morningproof: warning: \(warning)") }
        if session.json {
            return try Console.json(ImportReport(plan, source: source.kind, file: source.path, applied: options.apply))
        }
        Console.out(ImportText.lines(plan, source: source, applied: options.apply).joined(separator: "\n"))
    }
}
