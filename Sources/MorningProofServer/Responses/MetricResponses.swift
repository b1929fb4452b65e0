import Foundation
import MorningProofCore
import MorningProofService

/// The answer of `POST /api/metrics`: what the ingest read, stored and completed.
struct IngestJSON: Encodable, Sendable {
    struct DayRange: Encodable, Sendable {
        let from: String
        let to: String
    }

    struct Warning: Encodable, Sendable {
        /// Where in the body: a line, a record, an entry of the archive.
        let `where`: String
        let message: String
    }

    struct Completed: Encodable, Sendable {
        let habit: String
        let day: String
        let value: Double
        let target: Double
    }

    let records: Int
    let duplicates: Int
    /// Nil (JSON null) when nothing changed.
    let daysTouched: DayRange?
    let warnings: [Warning]
    let completed: [Completed]

    init(_ report: IngestReport) {
        records = report.records
        duplicates = report.duplicates
        daysTouched = report.daysTouched.map {
            DayRange(from: $0.lowerBound.description, to: $0.upperBound.description)
        }
        warnings = report.warnings.map { Warning(where: $0.location, message: $0.message) }
        completed = report.completed.map {
            Completed(habit: $0.habit, day: $0.day.description, value: $0.value, target: $0.target)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case records, duplicates, daysTouched, warnings, completed
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(records, forKey: .records)
        try container.encode(duplicates, forKey: .duplicates)
        // Always present: null says "nothing changed".
        if let daysTouched {
            try container.encode(daysTouched, forKey: .daysTouched)
        } else {
            try container.encodeNil(forKey: .daysTouched)
        }
        try container.encode(warnings, forKey: .warnings)
        try container.encode(completed, forKey: .completed)
    }
}
