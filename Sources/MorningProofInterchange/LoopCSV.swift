import Foundation
import MorningProofCore

/// Loop Habit Tracker's CSV export: `Habits.csv` (one line per habit, by position) and, per habit, a
/// folder `NNN Name/` whose `Checkmarks.csv` lists its days (`Date,Value,Notes`, newest first).
public enum LoopCSV {
    /// Reads the export's files, by their path inside the export (`Habits.csv`, `001 Meditate/Checkmarks.csv`).
    /// `label` names the export in warnings. Throws a data error when there is no usable `Habits.csv`.
    public static func backup(files: [String: Data], label: String) throws -> LoopBackup {
        guard let habitsData = files["Habits.csv"] else {
            throw MorningProofError.dataError("\(label): no Habits.csv (not a Loop Habit Tracker CSV export)")
        }
        let habitsFile = "\(label)/Habits.csv"
        let habits = try readHabits(String(decoding: habitsData, as: UTF8.self), file: habitsFile)
        var repetitions: [LoopBackup.Repetition] = []
        var warnings: [ImportWarning] = []
        for (path, data) in files.sorted(by: { $0.key < $1.key }) {
            let parts = path.split(separator: "/")
            guard parts.count == 2, parts[1] == "Checkmarks.csv",
                let position = Int(parts[0].prefix(while: \.isNumber))
            else { continue }
            let file = "\(label)/\(path)"
            guard habits.contains(where: { $0.id == Int64(position) }) else {
                warnings.append(.init(file: file, place: .line(1), message: "no habit at position \(position) in Habits.csv"))
                continue
            }
            repetitions += readCheckmarks(String(decoding: data, as: UTF8.self), habitID: Int64(position), file: file)
        }
        return LoopBackup(habits: habits, repetitions: repetitions, warnings: warnings)
    }

    /// `Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,
    /// Target Value,Archived?` (older exports: `NumRepetitions,Interval` for the frequency).
    static func readHabits(_ text: String, file: String) throws -> [LoopBackup.Habit] {
        let records = CSVRecords.parse(text)
        guard let header = records.first?.fields.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }),
            let nameColumn = header.firstIndex(of: "name"),
            let numeratorColumn = header.firstIndex(where: { $0 == "frequencynumerator" || $0 == "numrepetitions" }),
            let denominatorColumn = header.firstIndex(where: { $0 == "frequencydenominator" || $0 == "interval" })
        else {
            throw MorningProofError.dataError(
                "\(file): not Loop's Habits.csv (no Name, FrequencyNumerator and FrequencyDenominator columns)")
        }
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        let positionColumn = column("position")
        return records.dropFirst().enumerated().map { index, record in
            func field(_ column: Int?) -> String? {
                guard let column, column < record.fields.count else { return nil }
                return record.fields[column]
            }
            let position = field(positionColumn).flatMap { Int($0) } ?? index + 1
            let type = field(column("type")).map { $0 == "NUMERICAL" ? 1 : 0 }
            return LoopBackup.Habit(
                id: Int64(position), position: position, name: field(nameColumn), question: field(column("question")),
                description: field(column("description")), numerator: field(numeratorColumn).flatMap { Int($0) },
                denominator: field(denominatorColumn).flatMap { Int($0) },
                archived: field(column("archived?")) == "true", type: type,
                targetType: field(column("target type")) == "AT_MOST" ? 1 : 0,
                targetValue: field(column("target value")).flatMap { Double($0) } ?? 0, unit: field(column("unit")),
                origin: .init(file: file, place: .line(record.line)))
        }
    }

    /// `Date,Value[,Notes]`: values as Loop names them (`YES_MANUAL`, `YES_AUTO`, `NO`, `SKIP`, `UNKNOWN`)
    /// or numbers (amounts times 1000).
    static func readCheckmarks(_ text: String, habitID: Int64, file: String) -> [LoopBackup.Repetition] {
        CSVRecords.parse(text).dropFirst().map { record in
            let fields = record.fields
            let day = fields.first.flatMap { LocalDay($0.trimmingCharacters(in: .whitespaces)) }
            let value = fields.count > 1 ? value(fields[1]) : nil
            return LoopBackup.Repetition(
                habitID: habitID, timestamp: day.map { Int64($0.dayNumber) * 86_400_000 }, value: value,
                notes: fields.count > 2 ? fields[2] : nil, origin: .init(file: file, place: .line(record.line)))
        }
    }

    static func value(_ text: String) -> Int? {
        switch text.trimmingCharacters(in: .whitespaces) {
        case "YES_MANUAL": LoopRules.yesManual
        case "YES_AUTO": LoopRules.yesAuto
        case "NO": LoopRules.no
        case "SKIP": LoopRules.skip
        case "UNKNOWN": LoopRules.unknown
        case let number: Int(number)
        }
    }
}
