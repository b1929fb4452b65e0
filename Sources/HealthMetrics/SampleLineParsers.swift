import Foundation
import MorningProofCore

/// The outcome of one line of a CSV or JSON Lines file.
enum LineOutcome {
    case sample(MetricSample)
    /// A line that is fine but holds nothing we count (InBed, Awake, a blank line).
    case nothing
    case problem(String)
}

/// Builds a sample from the fields a line gives, the same way for CSV and JSON Lines.
enum SampleFields {
    /// Names of sleep states that are not sleep: read, never counted.
    static let notAsleep: Set<String> = ["inbed", "awake", "sleepinbed", "sleepawake", "sleepanalysisinbed"]

    static func sample(
        metric name: String, value: String?, numeric: Double? = nil, start: String?, end: String?, unit: String?,
        source: String?, activity: String?, clock: DayClock
    ) -> LineOutcome {
        let key = name.lowercased().filter { $0.isLetter }
        if notAsleep.contains(key) { return .nothing }
        guard let metric = HealthMetric(name: name) else { return .problem("unknown metric \"\(name)\"") }
        let valueText = value?.trimmingCharacters(in: .whitespaces) ?? ""
        let hasEnd = !(end?.trimmingCharacters(in: .whitespaces).isEmpty ?? true)
        // A sleep interval needs no value: its length is the value (a value given is checked, not used).
        let parsed = numeric ?? Double(valueText)
        if parsed == nil && !(metric == .sleep && hasEnd && valueText.isEmpty) || parsed?.isFinite == false {
            return .problem("value \"\(value ?? "")\" is not a number")
        }
        let amount = parsed ?? 0
        let factor: Double?
        switch metric {
        case .workouts, .workoutMinutes: factor = MetricUnits.durationFactor(unit ?? "")
        default: factor = MetricUnits.factor(from: unit, to: metric)
        }
        guard let factor else { return .problem("unit \"\(unit ?? "")\" does not fit \(metric.rawValue)") }
        guard let startText = start, let parsedStart = HealthDate.parse(startText.trimmingCharacters(in: .whitespaces))
        else {
            return .problem("date \"\(start ?? "")\" is not a date such as 2026-03-08 or 2026-03-08 07:05:11 -0500")
        }
        var endSeconds: Double?
        if let endText = end?.trimmingCharacters(in: .whitespaces), !endText.isEmpty {
            guard let parsedEnd = HealthDate.parse(endText) else {
                return .problem("end \"\(endText)\" is not a date")
            }
            endSeconds = parsedEnd.seconds(in: clock)
        }
        let startSeconds = parsedStart.seconds(in: clock)
        if let endSeconds, endSeconds < startSeconds { return .problem("end is before start") }
        if let endSeconds, let problem = SampleFields.implausibleInterval(startSeconds, endSeconds) {
            return .problem(problem)
        }
        // A workout's value is its minutes.
        if parsed != nil,
            let problem = (metric == .workouts ? .workoutMinutes : metric).implausibility(of: amount * factor)
        {
            return .problem(problem)
        }
        let trimmedSource = source?.trimmingCharacters(in: .whitespaces) ?? ""
        var base = amount * factor
        if metric == .sleep, let endSeconds { base = (endSeconds - startSeconds) / 60 }
        var sample = MetricSample(
            metric: metric == .workoutMinutes ? .workouts : metric, value: base,
            start: Date(timeIntervalSince1970: startSeconds), end: endSeconds.map { Date(timeIntervalSince1970: $0) },
            source: trimmedSource.isEmpty ? "unknown" : trimmedSource)
        if sample.metric == .workouts {
            sample.activity = activity.map(ActivityNames.normalized) ?? ""
        }
        return .sample(sample)
    }
}

extension SampleFields {
    /// Why an interval cannot be one record (longer than a day), or nil.
    static func implausibleInterval(_ start: Double, _ end: Double) -> String? {
        guard end - start > HealthMetric.maximumIntervalSeconds else { return nil }
        let hours = ((end - start) / 360).rounded() / 10
        return "an interval of \(hours) hours is longer than a day"
    }
}

/// The columns of a metrics CSV, from its header line.
struct CSVHeader {
    let separator: Character
    let date: Int?
    let start: Int?
    let end: Int?
    let metric: Int
    /// Optional when the file has start and end columns: a sleep interval needs no value.
    let value: Int?
    let unit: Int?
    let source: Int?
    let activity: Int?

    /// The longest header line read: a real one names a handful of columns; one of a million
    /// columns is no metrics header, and splitting it would only cost time.
    static let maxLength = 8192

    init?(line: String) {
        guard line.utf8.count <= Self.maxLength else { return nil }
        let separator: Character = line.contains(";") && !line.contains(",") ? ";" : (line.contains("\t") ? "\t" : ",")
        let names = CSVHeader.fields(line, separator: separator).map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        func index(_ wanted: String...) -> Int? { names.firstIndex { wanted.contains($0) } }
        guard let metric = index("metric", "type", "name") else { return nil }
        let value = index("value", "qty", "quantity")
        let date = index("date", "day")
        let start = index("start", "startdate", "start_date")
        let end = index("end", "enddate", "end_date")
        guard date != nil || start != nil, value != nil || (start != nil && end != nil) else { return nil }
        self.separator = separator
        self.date = date
        self.start = start
        self.end = end
        self.metric = metric
        self.value = value
        self.unit = index("unit", "units")
        self.source = index("source", "sourcename", "device")
        self.activity = index("activity", "workout")
    }

    func parse(_ line: String, clock: DayClock) -> LineOutcome {
        if line.allSatisfy(\.isWhitespace) { return .nothing }
        let fields = CSVHeader.fields(line, separator: separator)
        func field(_ index: Int?) -> String? {
            guard let index, index < fields.count else { return nil }
            let value = fields[index].trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? nil : value
        }
        guard let metric = field(metric) else { return .problem("no metric in column \(metric + 1)") }
        return SampleFields.sample(
            metric: metric, value: field(value), start: field(start) ?? field(date), end: field(end), unit: field(unit),
            source: field(source), activity: field(activity), clock: clock)
    }

    /// Splits a CSV line, honouring double quotes (`"a, b"` and `""` inside them).
    static func fields(_ line: String, separator: Character) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var justClosed = false
        for c in line {
            if quoted {
                if c == "\"" {
                    quoted = false
                    justClosed = true
                    continue
                }
                current.append(c)
            } else if c == "\"" {
                if justClosed { current.append("\"") }
                quoted = true
            } else if c == separator {
                fields.append(current)
                current = ""
            } else if c != "\r" {
                current.append(c)
            }
            justClosed = false
        }
        fields.append(current)
        return fields
    }
}

/// One JSON Lines object: `{"metric": "steps", "value": 812, "start": "...", "end": "...", "unit": "count", "source": "Watch"}`.
enum JSONLineParser {
    static func parse(_ line: Data, clock: DayClock) -> LineOutcome {
        if line.allSatisfy({ isSpace($0) }) { return .nothing }
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else {
            return .problem("not a JSON object")
        }
        func text(_ keys: String...) -> String? {
            for key in keys {
                if let value = object[key] as? String { return value }
                if let value = object[key] as? NSNumber { return value.stringValue }
            }
            return nil
        }
        guard let metric = text("metric", "type", "name") else { return .problem("no \"metric\" field") }
        if let stage = text("stage"), SampleFields.notAsleep.contains(stage.lowercased().filter(\.isLetter)) {
            return .nothing
        }
        let numeric = (object["value"] as? NSNumber ?? object["qty"] as? NSNumber)?.doubleValue
        return SampleFields.sample(
            metric: metric, value: text("value", "qty"), numeric: numeric, start: text("start", "startDate", "date"),
            end: text("end", "endDate"), unit: text("unit", "units"), source: text("source", "sourceName"),
            activity: text("activity"), clock: clock)
    }
}
