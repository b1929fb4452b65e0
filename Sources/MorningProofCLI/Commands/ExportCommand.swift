import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

/// `morningproof export`: every habit and its history, to take away or to keep.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every habit with its schedule, goal and entries as JSON or CSV.",
        discussion: """
            JSON (the default) is MorningProof's versioned export format (docs/export-format.md): every \
            habit, archived ones too, with its entries and the metadata of its photo proofs (not the \
            photos). The same data always gives the same bytes, and `morningproof import json` reads it \
            back. CSV has one row per habit per day, from the habit's first day through today, with the \
            day's state (done, skipped, travel, covered, open, missed), value, source and note: for \
            spreadsheets.
            Examples:
              morningproof export --out habits.json
              morningproof export --format csv --out habits.csv
              morningproof export | gzip > habits.json.gz
            """)

    @Option(help: "json or csv.")
    var format: String = "json"

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var out: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try validating {
            guard ExportService.Format(rawValue: format) != nil else {
                throw MorningProofError.usage("--format takes json or csv, not \"\(format)\"")
            }
        }
    }

    func run() async throws {
        let session = try await global.session()
        let export = try await ExportService(database: session.database, clock: session.clock)
            .export(ExportService.Format(rawValue: format)!, now: session.now)
        guard let out else { return Console.outData(export.data) }
        try OutputFile.write(export.data, to: out)
        Console.out(
            "Exported \(ImportText.count(export.habits, "habit")) and \(ImportText.count(export.entries, "entry", "entries")) to \(out) (\(format))."
        )
    }
}
