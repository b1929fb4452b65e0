import Foundation

extension HealthMetric {
    /// What a daily value of this metric measures, for reading goal targets in a person's units.
    public enum Dimension: Sendable {
        /// A plain count (steps, workouts).
        case count
        /// Minutes.
        case duration
        /// Kilocalories.
        case energy
        /// Kilometres.
        case length
    }

    public var dimension: Dimension {
        switch self {
        case .steps, .workouts: .count
        case .sleep, .workoutMinutes, .exerciseMinutes, .mindfulMinutes: .duration
        case .activeEnergy: .energy
        case .distance: .length
        }
    }

    /// The names a person can type after `--metric`, for error messages.
    public static var knownNames: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Reads and writes goal targets in a person's units: `7h`, `7h30m`, `30min`, `5km`, `3mi`,
/// `500kcal`, `2000kJ`, `8000`. Values are kept in the metric's base unit (minutes, km, kcal, count).
public enum GoalTarget {
    /// Parses `text` as a target for `metric`; a unit of the wrong kind ("7h" of steps) is a usage error.
    public static func parse(_ text: String, for metric: HealthMetric) throws -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: ",", with: "")
        guard let parts = split(trimmed), !parts.isEmpty else { throw badTarget(text, metric) }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            guard let factor = factor(of: part.unit, for: metric.dimension) else { throw badTarget(text, metric) }
            // `7h30` means 7 h 30 min: a bare number after hours is minutes.
            if part.unit.isEmpty && index > 0 {
                guard metric.dimension == .duration, parts[index - 1].unit.hasPrefix("h") else {
                    throw badTarget(text, metric)
                }
                total += part.number
                continue
            }
            // Only a duration may be written in several parts (`1h30m`).
            if index > 0 && metric.dimension != .duration { throw badTarget(text, metric) }
            total += part.number * factor
        }
        guard total.isFinite, total >= 0 else { throw badTarget(text, metric) }
        try check(total, for: metric)
        return total
    }

    /// Refuses a target outside 0 through `metric.maximumPerDay` (a usage error naming the range):
    /// the one check for every way a goal comes in (options, HTTP, imports). A larger target could
    /// never be met, and one past `Int.max` once broke every listing.
    public static func check(_ target: Double, for metric: HealthMetric) throws {
        guard target.isFinite, target >= 0, target <= metric.maximumPerDay else {
            throw MorningProofError.usage(
                "target \(HealthMetric.format(target)) \(metric.baseUnit) for \(metric.rawValue) is out of range: use 0 to \(format(metric.maximumPerDay, for: metric))"
            )
        }
    }

    /// A target or a value in words: `8,000 steps`, `7 h 30 min`, `5.2 km`, `500 kcal`, `1 workout`.
    /// Any number reads: one too large for words (a target stored by an older version) shows as is.
    public static func format(_ value: Double, for metric: HealthMetric) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "\(HealthMetric.format(value)) \(metric.baseUnit)" }
        switch metric {
        case .steps: return "\(grouped(value)) steps"
        case .workouts: return value == 1 ? "1 workout" : "\(grouped(value)) workouts"
        case .activeEnergy: return "\(grouped(value)) kcal"
        case .distance: return "\(decimal(value)) km"
        case .sleep, .workoutMinutes, .exerciseMinutes, .mindfulMinutes:
            let minutes = Int(value.rounded())
            if minutes < 60 { return "\(minutes) min" }
            return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
        }
    }

    /// A number with thousands separators and no fraction: `8,412`.
    static func grouped(_ value: Double) -> String {
        let whole = Int(value.rounded())
        let digits = String(abs(whole))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (whole < 0 ? "-" : "") + out
    }

    /// A number with at most one decimal: `5.2`, `6`.
    static func decimal(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() ? "\(Int(tenths))" : "\(tenths)"
    }

    private struct Part {
        var number: Double
        var unit: String
    }

    /// `7h30m` -> [(7, "h"), (30, "m")]; nil when it is not numbers followed by letters.
    private static func split(_ text: String) -> [Part]? {
        var parts: [Part] = []
        var index = text.startIndex
        while index < text.endIndex {
            while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
            let numberStart = index
            while index < text.endIndex, text[index].isNumber || text[index] == "." { index = text.index(after: index) }
            guard let number = Double(text[numberStart..<index]) else { return nil }
            while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
            let unitStart = index
            while index < text.endIndex, text[index].isLetter { index = text.index(after: index) }
            parts.append(Part(number: number, unit: String(text[unitStart..<index])))
        }
        return parts
    }

    /// How many base units one of `unit` is, or nil when the unit does not fit the dimension.
    private static func factor(of unit: String, for dimension: HealthMetric.Dimension) -> Double? {
        if unit.isEmpty { return 1 }
        switch dimension {
        case .count:
            return nil
        case .duration:
            switch unit {
            case "h", "hr", "hrs", "hour", "hours": return 60
            case "m", "min", "mins", "minute", "minutes": return 1
            case "s", "sec", "secs", "second", "seconds": return 1.0 / 60
            default: return nil
            }
        case .energy:
            switch unit {
            case "kcal", "cal", "calories": return 1
            case "kj": return 1 / 4.184
            default: return nil
            }
        case .length:
            switch unit {
            case "km": return 1
            case "m": return 0.001
            case "mi", "mile", "miles": return 1.609344
            default: return nil
            }
        }
    }

    private static func badTarget(_ text: String, _ metric: HealthMetric) -> MorningProofError {
        let examples: String
        switch metric.dimension {
        case .count: examples = "a number such as 8000"
        case .duration: examples = "a duration such as 7h, 7h30m or 30min"
        case .energy: examples = "energy such as 500kcal or 2000kJ"
        case .length: examples = "a distance such as 5km or 3mi"
        }
        return .usage(
            "bad target \"\(text)\" for \(metric.rawValue): use \(examples), from 0 to \(format(metric.maximumPerDay, for: metric))")
    }
}

extension MetricGoal {
    /// The goal in words: `at least 8,000 steps`, `at most 2 h`, `at least 1 workout (running)`;
    /// a goal that `validate()` refuses (stored by an older version) says so.
    public var summary: String {
        let amount = HealthMetric(name: metric).map { GoalTarget.format(target, for: $0) } ?? "\(target) \(metric)"
        let words = comparison == .atLeast ? "at least" : "at most"
        let invalid = (try? validate()) == nil ? " (out of range: edit it)" : ""
        return "\(words) \(amount)" + (activity.map { " (\($0))" } ?? "") + invalid
    }

    /// Refuses a goal whose metric is unknown or whose target is out of range (`GoalTarget.check`).
    public func validate() throws {
        guard let kind = HealthMetric(name: metric) else {
            throw MorningProofError.usage("unknown metric \"\(metric)\" (metrics: \(HealthMetric.knownNames))")
        }
        try GoalTarget.check(target, for: kind)
    }
}

/// Reads intervals such as `30s`, `5m`, `1h` or `90` (seconds) for `watch --interval` and timeouts.
public enum IntervalText {
    /// Seconds in `text`, or nil when it is not a positive interval.
    public static func seconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        guard let number = Double(digits), number > 0, number.isFinite else { return nil }
        switch trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces) {
        case "", "s", "sec", "secs", "second", "seconds": return number
        case "m", "min", "mins", "minute", "minutes": return number * 60
        case "h", "hr", "hour", "hours": return number * 3600
        case "ms": return number / 1000
        default: return nil
        }
    }
}
