import Foundation
import MorningProofCore

/// MorningProof's own export: every habit with its schedule, goal, entries and evidence metadata.
/// Versioned JSON (docs/export-format.md); the same data always encodes to the same bytes.
public struct ExportDocument: Equatable, Sendable {
    /// The value of the `format` field, naming what the file is.
    public static let format = "morningproof-export"
    /// The schema version this code writes, and the newest it reads.
    public static let version = 1

    public var habits: [PortableHabit]

    public init(habits: [PortableHabit]) {
        self.habits = habits
    }

    /// The document as JSON: sorted keys, two-space indentation, a final newline.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Encoding plain values into JSON cannot fail (no NaN reaches a stored number).
        guard let data = try? encoder.encode(self) else { preconditionFailure("export encoding failed") }
        return data + Data("\n".utf8)
    }

    /// Reads an export. A file that is not one, or one from a newer MorningProof, is refused
    /// (a data error naming the file and the field); a habit that breaks a rule is left out with a warning.
    public static func read(_ data: Data, file: String) throws -> ImportBatch {
        struct Header: Decodable {
            var format: String?
            var version: Int?
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw MorningProofError.dataError("\(file): not a MorningProof export (\(Self.describe(error)))")
        }
        guard header.format == format, let version = header.version else {
            throw MorningProofError.dataError(
                "\(file): not a MorningProof export (no \"format\": \"\(format)\" with a \"version\")")
        }
        guard version <= Self.version else {
            throw MorningProofError.dataError(
                "\(file) is an export of version \(version), from a newer MorningProof; this one reads version \(Self.version) and older"
            )
        }
        let document: ExportDocument
        do {
            document = try JSONDecoder().decode(ExportDocument.self, from: data)
        } catch {
            throw MorningProofError.dataError("\(file): \(Self.describe(error))")
        }
        var batch = ImportBatch()
        for (index, habit) in document.habits.enumerated() {
            let origin = ImportWarning.Origin(file: file, place: .path("habits[\(index)]"))
            do {
                var checked = habit
                checked.name = try UserText.validate(habit.name, field: "habit name", maxLength: UserText.habitNameMaxLength)
                try habit.goal?.validate()
                try LocalDay.checkSupported(habit.createdDay, field: "createdDay")
                for entry in habit.entries { try LocalDay.checkSupported(entry.day, field: "entry day") }
                batch.add(checked, from: origin)
            } catch let error as MorningProofError {
                batch.warn(origin, "\(error.message); habit left out")
            }
        }
        return batch
    }

    /// A decoding error in words, with the JSON path of the field: `habits[2].entries[5].day: ...`.
    static func describe(_ error: Error) -> String {
        func path(_ keys: [CodingKey]) -> String {
            keys.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error as? DecodingError {
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let why = underlying ?? context.debugDescription
            return context.codingPath.isEmpty ? "not JSON (\(why))" : "\(path(context.codingPath)): \(why)"
        case .keyNotFound(let key, let context):
            let at = path(context.codingPath + [key])
            return "\(at) is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        default:
            return "\(error)"
        }
    }
}

extension ExportDocument: Codable {
    enum Keys: String, CodingKey { case format, version, habits }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        habits = try container.decode([PortableHabit].self, forKey: .habits)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Self.format, forKey: .format)
        try container.encode(Self.version, forKey: .version)
        try container.encode(habits, forKey: .habits)
    }
}

extension PortableHabit: Codable {
    enum Keys: String, CodingKey {
        case name, kind, schedule, remindAt, required, note, archived, goal, createdDay, createdAt, entries
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let scheduleText = try c.decode(String.self, forKey: .schedule)
        guard let schedule = Schedule(storageValue: scheduleText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .schedule, in: c, debugDescription: "unknown schedule \"\(scheduleText)\"")
        }
        var remindAt: Int?
        if let text = try c.decodeIfPresent(String.self, forKey: .remindAt) {
            guard let minutes = parseClockTime(text) else {
                throw DecodingError.dataCorruptedError(forKey: .remindAt, in: c, debugDescription: "not HH:MM: \(text)")
            }
            remindAt = minutes
        }
        self.init(
            name: try c.decode(String.self, forKey: .name), kind: try c.decode(HabitKind.self, forKey: .kind),
            schedule: schedule, remindAt: remindAt, required: try c.decode(Bool.self, forKey: .required),
            note: try c.decodeIfPresent(String.self, forKey: .note), archived: try c.decode(Bool.self, forKey: .archived),
            goal: try c.decodeIfPresent(MetricGoal.self, forKey: .goal),
            createdDay: try c.decode(LocalDay.self, forKey: .createdDay),
            createdAt: try InstantText.decode(c, .createdAt),
            entries: try c.decodeIfPresent([PortableEntry].self, forKey: .entries) ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(habit.name, forKey: .name)
        try c.encode(habit.kind, forKey: .kind)
        try c.encode(habit.schedule.storageValue, forKey: .schedule)
        try c.encodeIfPresent(habit.remindAt.map(formatClockTime), forKey: .remindAt)
        try c.encode(habit.required, forKey: .required)
        try c.encodeIfPresent(habit.note, forKey: .note)
        try c.encode(habit.archived, forKey: .archived)
        try c.encodeIfPresent(habit.goal, forKey: .goal)
        try c.encode(habit.createdDay, forKey: .createdDay)
        try c.encode(InstantText.format(habit.createdAt), forKey: .createdAt)
        try c.encode(entries, forKey: .entries)
    }
}

extension PortableEntry: Codable {
    enum Keys: String, CodingKey { case day, status, value, source, note, recordedAt, zone, evidence }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            day: try c.decode(LocalDay.self, forKey: .day), status: try c.decode(EntryStatus.self, forKey: .status),
            value: try c.decodeIfPresent(Double.self, forKey: .value),
            source: try c.decode(EntrySource.self, forKey: .source), note: try c.decodeIfPresent(String.self, forKey: .note),
            recordedAt: try InstantText.decode(c, .recordedAt), zone: try c.decode(String.self, forKey: .zone),
            evidence: try c.decodeIfPresent([PortableEvidence].self, forKey: .evidence) ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(entry.day, forKey: .day)
        try c.encode(entry.status, forKey: .status)
        try c.encodeIfPresent(entry.value, forKey: .value)
        try c.encode(entry.source, forKey: .source)
        try c.encodeIfPresent(entry.note, forKey: .note)
        try c.encode(InstantText.format(entry.recordedAt), forKey: .recordedAt)
        try c.encode(entry.zone, forKey: .zone)
        if !evidence.isEmpty { try c.encode(evidence, forKey: .evidence) }
    }
}

extension PortableEvidence: Codable {
    enum Keys: String, CodingKey {
        case sha256, perceptualHash, captureTime, verdict, confidence, features, recordedAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let hashText = try c.decode(String.self, forKey: .perceptualHash)
        guard hashText.count == 16, let hash = UInt64(hashText, radix: 16) else {
            throw DecodingError.dataCorruptedError(
                forKey: .perceptualHash, in: c, debugDescription: "not 16 hex digits: \(hashText)")
        }
        self.init(
            sha256: try c.decode(String.self, forKey: .sha256), perceptualHash: Int64(bitPattern: hash),
            captureTime: try c.decodeIfPresent(String.self, forKey: .captureTime),
            verdict: try c.decode(String.self, forKey: .verdict), confidence: try c.decode(Double.self, forKey: .confidence),
            features: try c.decode([String: Double].self, forKey: .features),
            recordedAt: try InstantText.decode(c, .recordedAt))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(sha256, forKey: .sha256)
        let hex = String(UInt64(bitPattern: perceptualHash), radix: 16)
        try c.encode(String(repeating: "0", count: 16 - hex.count) + hex, forKey: .perceptualHash)
        try c.encodeIfPresent(captureTime, forKey: .captureTime)
        try c.encode(verdict, forKey: .verdict)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(features, forKey: .features)
        try c.encode(InstantText.format(recordedAt), forKey: .recordedAt)
    }
}

/// Instants in the export: UTC with milliseconds, `2026-03-08T12:30:00.250Z`, so that reading and
/// writing again gives the same text (the store keeps milliseconds).
enum InstantText {
    static func format(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let fraction = milliseconds - seconds * 1000
        let millis = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(LocalDay(dayNumber: Int(days)))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)).\(millis)Z"
    }

    static func decode<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> Date {
        let text = try container.decode(String.self, forKey: key)
        guard let date = ISOInstant.parse(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "not an ISO 8601 instant: \(text)")
        }
        return date
    }
}
