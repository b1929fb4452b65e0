import Foundation
import MorningProofCore

/// The spreadsheet form of an export: one row per habit per day, like Loop's checkmarks.
public enum ExportCSV {
    public static let header = "habit,date,state,value,source,note"

    /// One habit's day: its judged state (done, skipped, travel, covered, open, missed) and its entry, if any.
    public struct Row: Sendable {
        public var habit: String
        public var status: DayStatus
        public var entry: Entry?

        public init(habit: String, status: DayStatus, entry: Entry?) {
            self.habit = habit
            self.status = status
            self.entry = entry
        }
    }

    /// The header and one line per row, each ending in a newline.
    public static func render(_ rows: [Row]) -> String {
        var text = header + "\n"
        for row in rows {
            let fields = [
                CSVRecords.field(row.habit), row.status.day.description, row.status.state,
                row.entry?.value.map(HealthMetric.format) ?? "", row.entry?.source.rawValue ?? "",
                row.entry?.note.map(CSVRecords.field) ?? "",
            ]
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }
}
