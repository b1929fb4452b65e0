import Foundation
import MorningProofCore
import MorningProofInterchange
import MorningProofStoreContract

/// Exports: every habit with its schedule, goal, entries and evidence metadata (never the photos), as
/// our versioned JSON (`morningproof import json` reads it back) or as CSV for spreadsheets.
public struct ExportService: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case json, csv
    }

    /// An export's bytes and what they hold.
    public struct Export: Sendable {
        public var data: Data
        public var habits: Int
        public var entries: Int
    }

    public let database: any AccountExportStore & AccountData
    public let clock: DayClock

    public init(database: any AccountExportStore & AccountData, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// The export's bytes. The JSON is the same bytes for the same data, whenever it is made; the
    /// CSV has one row per habit per day from its first day through today, judged as of `now`.
    public func export(_ format: Format, now: Date) async throws -> Export {
        let document = try await database.exportDocument()
        let data: Data
        switch format {
        case .json: data = document.encoded()
        case .csv: data = Data(try await csv(today: clock.day(at: now)).utf8)
        }
        return Export(
            data: data, habits: document.habits.count, entries: document.habits.reduce(0) { $0 + $1.entries.count })
    }

    private func csv(today: LocalDay) async throws -> String {
        let habits = try await database.habits(includeArchived: true)
        var rows: [ExportCSV.Row] = []
        for progress in try await database.progress(of: habits, today: today) {
            let entries = try await database.entries(habitID: progress.habit.id).reduce(into: [LocalDay: Entry]()) {
                $0[$1.day] = $1
            }
            rows += progress.timeline.days.map {
                ExportCSV.Row(habit: progress.habit.name, status: $0, entry: entries[$0.day])
            }
        }
        return ExportCSV.render(rows)
    }
}
