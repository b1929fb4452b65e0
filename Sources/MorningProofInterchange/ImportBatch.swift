import Foundation
import MorningProofCore

/// A row an import could not use, with the file and the place in it: never a reason to stop.
public struct ImportWarning: Equatable, Sendable, CustomStringConvertible {
    public enum Place: Equatable, Sendable {
        /// A line of a text file, from 1.
        case line(Int)
        /// A row of a table (`Habits id 4`) or a field of a JSON file (`habits[2]`).
        case path(String)
    }

    /// A file and a place in it: where a row came from.
    public struct Origin: Equatable, Sendable {
        public var file: String
        public var place: Place

        public init(file: String, place: Place) {
            self.file = file
            self.place = place
        }
    }

    public var file: String
    public var place: Place
    public var message: String

    public init(file: String, place: Place, message: String) {
        self.file = file
        self.place = place
        self.message = message
    }

    public init(_ origin: Origin, _ message: String) {
        self.init(file: origin.file, place: origin.place, message: message)
    }

    /// `log:12: bad date` or `loop.db (Repetitions id 7): ...`.
    public var description: String {
        switch place {
        case .line(let number): "\(file):\(number): \(message)"
        case .path(let path): "\(file) (\(path)): \(message)"
        }
    }
}

/// What an importer read: habits with their entries, and the rows it left out.
public struct ImportBatch: Equatable, Sendable {
    public var habits: [PortableHabit] = []
    /// The first `warningsKept` rows left out; `warningsNotKept` counts the others.
    public var warnings: [ImportWarning] = []
    /// Rows left out past the first `warningsKept`: counted, not kept, so that a file of a million bad
    /// rows does not hold a million messages.
    public var warningsNotKept = 0

    /// The most warnings an import keeps.
    public static let warningsKept = 1_000

    public init(habits: [PortableHabit] = [], warnings: [ImportWarning] = []) {
        self.habits = habits
        self.warnings = warnings
    }

    /// Adds a habit, unless one of the same name (in any case) came earlier: two cannot both be stored.
    mutating func add(_ habit: PortableHabit, from origin: ImportWarning.Origin) {
        if habits.contains(where: { $0.name.caseInsensitiveCompare(habit.name) == .orderedSame }) {
            warn(origin, "a second habit named \"\(habit.name)\"; left out")
        } else {
            habits.append(habit)
        }
    }

    mutating func warn(_ file: String, _ place: ImportWarning.Place, _ message: String) {
        warn(ImportWarning(file: file, place: place, message: message))
    }

    mutating func warn(_ origin: ImportWarning.Origin, _ message: String) {
        warn(ImportWarning(origin, message))
    }

    private mutating func warn(_ warning: ImportWarning) {
        if warnings.count < Self.warningsKept { warnings.append(warning) } else { warningsNotKept += 1 }
    }

    /// The warnings kept, and one more that counts those that were not.
    public var warningsToShow: [ImportWarning] {
        guard warningsNotKept > 0, let last = warnings.last else { return warnings }
        return warnings + [
            ImportWarning(
                file: last.file, place: last.place,
                message: "and \(warningsNotKept) more rows left out (only the first \(Self.warningsKept) are listed)")
        ]
    }
}

/// What another program's record of a day means for us.
public enum DayOutcome: Equatable, Sendable {
    /// Done, with the amount when the program counts one.
    case done(value: Double?)
    case skipped
    /// Not done (or left to the schedule): nothing to store.
    case notDone
}

/// Where an import happens: the moment and the zone that new entries are recorded with.
public struct ImportContext: Sendable {
    public var now: Date
    public var clock: DayClock

    public init(now: Date, clock: DayClock) {
        self.now = now
        self.clock = clock
    }

    public var today: LocalDay { clock.day(at: now) }

    /// The entry of another program's day (nil when it was not done): the day as that program gave it,
    /// recorded now in the configured zone.
    func entry(_ day: LocalDay, _ outcome: DayOutcome, note: String?) -> PortableEntry? {
        let status: EntryStatus
        var value: Double?
        switch outcome {
        case .done(let amount): (status, value) = (.done, amount)
        case .skipped: status = .skipped
        case .notDone: return nil
        }
        return PortableEntry(
            day: day, status: status, value: value, source: .import, note: note, recordedAt: now,
            zone: clock.zoneIdentifier)
    }

    /// A habit first seen on `firstDay` (its oldest record), created by this import.
    func habit(_ name: String, schedule: Schedule, firstDay: LocalDay?) -> PortableHabit {
        PortableHabit(name: name, schedule: schedule, createdDay: min(firstDay ?? today, today), createdAt: now)
    }

    /// A note checked like one a person types, its line breaks and tabs made spaces; nil (with `problem`
    /// set) when it still breaks the rules.
    func note(_ text: String?, problem: inout String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        let oneLine = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" || $0 == "\t" })
            .joined(separator: " ")
        do {
            return try UserText.validate(oneLine, field: "note", maxLength: UserText.noteMaxLength)
        } catch let error as MorningProofError {
            problem = "\(error.message); note left out"
            return nil
        } catch {
            return nil
        }
    }

    /// A habit name checked like one a person types.
    func name(_ text: String) throws -> String {
        let name = try UserText.validate(text, field: "habit name", maxLength: UserText.habitNameMaxLength)
        guard !UserText.isBlank(name) else { throw MorningProofError.usage("a habit needs a name") }
        return name
    }
}
