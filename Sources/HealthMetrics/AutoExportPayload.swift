import Foundation
import MorningProofCore

/// Health Auto Export's payload as `HealthAutoExportReader` needs it, decoded leniently: only the
/// fields it reads are built; a field of another type is absent, a metric, entry or workout that
/// is not an object is nil (the others are read), and every other key (routes, heart-rate series,
/// `stateOfMind`, `ecg`...) is skipped without being turned into objects. JSONSerialization built
/// the whole tree: 3.4 times the memory and twice the time on a 10 MB payload.
struct AutoExportPayload: Decodable {
    /// Nil when `data` is absent or not an object.
    var data: Body?

    private enum Key: String, CodingKey { case data }

    /// `data.metrics` or `data.workouts` given as something else than an array (or null): not Health
    /// Auto Export's shape, whatever the rest holds.
    struct NotAList: Error {
        var key: String
    }

    init(from decoder: Decoder) throws {
        // Not an object at the top: a type mismatch the reader reports as such.
        let container = try decoder.container(keyedBy: Key.self)
        do {
            data = try container.decodeIfPresent(Body.self, forKey: .data)
        } catch let shape as NotAList {
            throw shape
        } catch {
            data = nil
        }
    }

    struct Body: Decodable {
        var metrics: [Metric?]
        var workouts: [Workout?]

        private enum Key: String, CodingKey { case metrics, workouts }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            metrics = try Self.list(container, .metrics)
            workouts = try Self.list(container, .workouts)
        }

        /// The array under `key`, each element decoded on its own; empty when absent or null.
        private static func list<Element: Decodable>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws
            -> [Element?]
        {
            guard container.contains(key), !((try? container.decodeNil(forKey: key)) ?? false) else { return [] }
            guard let list = try? container.decode([Lenient<Element>].self, forKey: key) else {
                throw NotAList(key: key.rawValue)
            }
            return list.map(\.value)
        }
    }

    struct Metric: Decodable {
        var name: String?
        var units: String?
        var data: [Entry?]

        private enum Key: String, CodingKey { case name, units, data }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            name = try? container.decodeIfPresent(String.self, forKey: .name)
            units = try? container.decodeIfPresent(String.self, forKey: .units)
            data = (try? container.decodeIfPresent([Lenient<Entry>].self, forKey: .data))?.map(\.value) ?? []
        }
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
    private struct Lenient<Wrapped: Decodable>: Decodable {
        var value: Wrapped?
        init(from decoder: Decoder) throws { value = try? Wrapped(from: decoder) }
    }
}
