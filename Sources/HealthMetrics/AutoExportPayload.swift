import Foundation
import MorningProofCore

/// Health Auto Export's payload as `HealthAutoExportReader` needs it, walked a chunk at a time
/// (`JSONChunkReader`): `data.metrics` element by element and, within a metric, its `data` entries
/// a group at a time, so that memory holds one group and never the whole file (one metric may
/// hold 443,000 sleep intervals). Only the fields read are built; a field of another type is
/// absent, a metric that is not an object is skipped, an entry or workout that is not one is nil
/// (the others are read), and every other key (routes, heart-rate series, `stateOfMind`, `ecg`...)
/// is checked and passed over without being turned into objects.
enum AutoExportPayload {
    /// `data.metrics` or `data.workouts` given as something else than an array (or null): not Health
    /// Auto Export's shape, whatever the rest holds.
    struct NotAList: Error {
        var key: String
    }

    /// The payload's shape is not Health Auto Export's: `what` says how.
    struct NotThePayload: Error {
        var what: String
    }

    /// Entries of metric `metric` (named `name`, in `units`), the first at index `first` of its `data`.
    typealias Entries = (_ metric: Int, _ name: String, _ units: String?, _ first: Int, _ entries: [Entry?]) throws ->
        Void

    /// Elements decoded at once: one decoder call per group, not per element.
    static let groupBytes = 256 << 10
    /// The largest entry or workout read; a larger one is a warning.
    static let elementLimit = 1 << 20

    /// Walks the whole input, handing each metric's entries to `entries` and the workouts (the
    /// first at index `first`) to `workouts` as they come, and the location of each element too
    /// large to read to `tooLarge`. Throws `JSONChunkReader.Broken` for input that is no JSON (wherever it breaks: the
    /// shape is judged once the whole input has been checked), then `NotAList`, then `NotThePayload`.
    static func walk(
        _ json: inout JSONChunkReader, entries: Entries,
        workouts: (_ first: Int, _ workouts: [Workout?]) throws -> Void,
        tooLarge: (String) -> Void
    ) throws {
        guard try json.peek() == UInt8(ascii: "{") else {
            try json.skipValue()
            try json.finish()
            throw NotThePayload(what: "no top-level object")
        }
        try json.enterObject()
        var sawBody = false
        var notAList: [String] = []
        var first = true
        while let key = try json.nextKey(first: first) {
            first = false
            guard key == "data", !sawBody, try json.peek() == UInt8(ascii: "{") else {
                try json.skipValue()
                continue
            }
            sawBody = true
            try json.enterObject()
            var firstInBody = true
            while let key = try json.nextKey(first: firstInBody) {
                firstInBody = false
                let next = try json.peek()
                switch key {
                case "metrics" where next == UInt8(ascii: "["):
                    try metrics(&json, entries, tooLarge: tooLarge)
                case "workouts" where next == UInt8(ascii: "["):
                    try elements(&json, as: Workout.self, at: "workouts", tooLarge: tooLarge, workouts)
                case "metrics", "workouts":
                    try json.skipValue()
                    if next != UInt8(ascii: "n") { notAList.append(key) }
                default: try json.skipValue()
                }
            }
        }
        try json.finish()
        // Metrics are judged before workouts, whatever their order in the file.
        if let key = notAList.sorted().first { throw NotAList(key: key) }
        guard sawBody else { throw NotThePayload(what: "no \"data\" object") }
    }

    /// `data.metrics`: each metric that is an object, its `name` and `units` first read (a file
    /// with `data` before them has that array held until the metric ends, as bytes).
    private static func metrics(_ json: inout JSONChunkReader, _ hand: Entries, tooLarge: (String) -> Void) throws {
        try json.enterArray()
        var index = 0
        while try json.nextElement(first: index == 0) {
            defer { index += 1 }
            guard try json.peek() == UInt8(ascii: "{") else {
                try json.skipValue()  // not a metric: not ours
                continue
            }
            try json.enterObject()
            var name: String?
            var units: String?
            var heldEntries: [UInt8]?
            var first = true
            while let key = try json.nextKey(first: first) {
                first = false
                let next = try json.peek()
                switch key {
                case "name": name = try text(&json)
                case "units": units = try text(&json)
                case "data" where next == UInt8(ascii: "["):
                    guard name != nil else {
                        heldEntries = try json.take(limit: Int.max)
                        continue
                    }
                    try entries(&json, metric: index, name: name, units: units, hand, tooLarge: tooLarge)
                default: try json.skipValue()
                }
            }
            if let heldEntries {
                var held = JSONChunkReader(data: Data(heldEntries))
                try entries(&held, metric: index, name: name, units: units, hand, tooLarge: tooLarge)
            }
        }
    }

    /// A metric's `data` array: read entry by entry when the metric is ours, else checked and passed over.
    private static func entries(
        _ json: inout JSONChunkReader, metric: Int, name: String?, units: String?, _ hand: Entries,
        tooLarge: (String) -> Void
    ) throws {
        guard let name, HealthMetric(name: name) != nil else {
            try json.skipValue()  // heart rate, weight...: not ours
            return
        }
        try elements(&json, as: Entry.self, at: "metrics[\(metric)] \(name) data", tooLarge: tooLarge) {
            try hand(metric, name, units, $0, $1)
        }
    }

    /// A string value, or nil for a value of another type (or one longer than 64 KB).
    private static func text(_ json: inout JSONChunkReader) throws -> String? {
        guard let bytes = try json.take(limit: 64 << 10) else { return nil }
        return try? JSONDecoder().decode([String].self, from: Data([UInt8(ascii: "[")] + bytes + [UInt8(ascii: "]")]))
            .first
    }

    /// The array's elements decoded a group at a time, each nil when it is not an `Element`; an
    /// element longer than `elementLimit` is reported to `tooLarge` by its location and skipped.
    private static func elements<Element: Decodable>(
        _ json: inout JSONChunkReader, as: Element.Type, at location: String, tooLarge: (String) -> Void,
        _ hand: (_ first: Int, _ elements: [Element?]) throws -> Void
    ) throws {
        var group: [UInt8] = [UInt8(ascii: "[")]
        var firstInGroup = 0
        var index = 0
        func handGroup() throws {
            guard group.count > 1 else { return }
            group.append(UInt8(ascii: "]"))
            let decoded: [Lenient<Element>]
            do {
                decoded = try JSONDecoder().decode([Lenient<Element>].self, from: Data(group))
            } catch {
                throw JSONChunkReader.Broken(reason: "\(location)[\(firstInGroup)...]: \(error.localizedDescription)")
            }
            try hand(firstInGroup, decoded.map(\.value))
            group = [UInt8(ascii: "[")]
        }
        try json.enterArray()
        while try json.nextElement(first: index == 0) {
            defer { index += 1 }
            guard let bytes = try json.take(limit: elementLimit) else {
                // The group so far, then the place of the one skipped, so that warnings stay in order.
                try handGroup()
                tooLarge("\(location)[\(index)]")
                firstInGroup = index + 1
                continue
            }
            if group.count > 1 { group.append(UInt8(ascii: ",")) }
            group += bytes
            if group.count >= groupBytes {
                try handGroup()
                firstInGroup = index + 1
            }
        }
        try handGroup()
    }

    /// One entry of a metric's `data`: a quantity at a date, an aggregated night or a sleep stage.
    struct Entry: Decodable {
        var qty: Quantity?
        var date, startDate, endDate, source, sleepSource, value: String?
        /// Hours of an aggregated night, by key (`totalSleep`, `asleep`, `core`, `deep`, `rem`, `inBed`).
        var hours: [String: Double] = [:]

        private enum Key: String, CodingKey {
            case qty, date, startDate, endDate, source, sleepSource, value
            case totalSleep, asleep, core, deep, rem, inBed
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            func text(_ key: Key) -> String? { try? container.decodeIfPresent(String.self, forKey: key) }
            qty = try? container.decodeIfPresent(Quantity.self, forKey: .qty)
            date = text(.date)
            startDate = text(.startDate)
            endDate = text(.endDate)
            source = text(.source)
            sleepSource = text(.sleepSource)
            value = text(.value)
            for key in [Key.totalSleep, .asleep, .core, .deep, .rem, .inBed] {
                if let number = try? container.decodeIfPresent(Double.self, forKey: key) {
                    hours[key.rawValue] = number
                }
            }
        }
    }

    /// A `qty`: a number, or the text it was written as (a warning quotes it).
    enum Quantity: Decodable {
        case number(Double)
        case text(String)

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .text(container.decodeNil() ? "null" : "(not a number)")
            }
        }

        var number: Double? { if case .number(let n) = self { n } else { nil } }
        var text: String {
            switch self {
            case .number(let n): HealthMetric.format(n)
            case .text(let t): t
            }
        }
    }

    struct Workout: Decodable {
        var name, start, end, source: String?
        /// Seconds (versions 1 and 2), or `{qty, units}`: minutes either way.
        var minutes: Double?

        private enum Key: String, CodingKey { case name, start, end, source, duration }
        private enum QuantityKey: String, CodingKey { case qty, units }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            name = try? container.decodeIfPresent(String.self, forKey: .name)
            start = try? container.decodeIfPresent(String.self, forKey: .start)
            end = try? container.decodeIfPresent(String.self, forKey: .end)
            source = try? container.decodeIfPresent(String.self, forKey: .source)
            if let seconds = try? container.decodeIfPresent(Double.self, forKey: .duration) {
                minutes = seconds / 60
            } else if let quantity = try? container.nestedContainer(keyedBy: QuantityKey.self, forKey: .duration),
                let qty = try? quantity.decodeIfPresent(Double.self, forKey: .qty)
            {
                let units = (try? quantity.decodeIfPresent(String.self, forKey: .units)) ?? "s"
                minutes = qty * (MetricUnits.durationFactor(units) ?? 1.0 / 60)
            }
        }
    }

    /// An array element that is nil when it cannot be decoded, so that its neighbours still are.
    struct Lenient<Wrapped: Decodable>: Decodable {
        var value: Wrapped?
        init(from decoder: Decoder) throws { value = try? Wrapped(from: decoder) }
    }
}
