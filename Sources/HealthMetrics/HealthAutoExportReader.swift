import Foundation
import MorningProofCore

/// Reads Health Auto Export JSON: `{"data": {"metrics": [{"name", "units", "data": [...]}], "workouts": [...]}}`.
/// Sleep comes either as aggregated nights (`date` = wake day, hours in `totalSleep` or
/// `asleep`+`core`+`deep`+`rem`; a night with only `inBed` hours is no sleep) or as stage
/// intervals (`startDate`, `endDate`, `value`).
public struct HealthAutoExportReader {
    let clock: DayClock

    public init(clock: DayClock) { self.clock = clock }

    /// The file at `path` as rows to store, with the number of records read and the warnings;
    /// messages and warnings name the file as `shownAs` (default: its path).
    public func readFile(_ path: String, shownAs name: String? = nil) throws -> (
        batch: MetricBatch, recordsRead: Int, warnings: [ReadWarning]
    ) {
        let name = name ?? path
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw MetricFileError(
                .unreadable, path: name, "\(name): \(error.localizedDescription)", cause: error.localizedDescription)
        }
        let (samples, warnings) = try read(data, file: name)
        var batch = MetricBatch()
        // `{qty, date}` is the period's total so far (a day's or an hour's steps), sent again as it
        // grows: the largest send counts, never their sum.
        for sample in samples { SampleRows.add(sample, to: &batch, clock: clock, pointsAreBuckets: true) }
        return (batch, samples.count, warnings)
    }

    /// The samples of a whole file and a warning for each entry that could not be read.
    public func read(_ data: Data, file: String) throws -> (samples: [MetricSample], warnings: [ReadWarning]) {
        let payload: AutoExportPayload
        do {
            payload = try JSONDecoder().decode(AutoExportPayload.self, from: data)
        } catch let shape as AutoExportPayload.NotAList {
            throw MetricFileError(
                .notMetrics, path: file, "\(file): not a Health Auto Export file (\"data.\(shape.key)\" is not a list)")
        } catch DecodingError.typeMismatch {
            throw MetricFileError(
                .notMetrics, path: file, "\(file): not a Health Auto Export file (no top-level object)")
        } catch {
            let reason = Self.reason(error)
            throw MetricFileError(
                .notMetrics, path: file, "\(file): the JSON is broken or cut short (\(reason))", cause: reason)
        }
        guard let body = payload.data else {
            throw MetricFileError(
                .notMetrics, path: file, "\(file): not a Health Auto Export file (no \"data\" object)")
        }
        var samples: [MetricSample] = []
        var warnings: [ReadWarning] = []
        func warn(_ location: String, _ message: String) {
            warnings.append(ReadWarning(file: file, location: location, message: message))
        }
        for (m, metric) in body.metrics.enumerated() {
            let name = metric?.name ?? ""
            guard let metric, let kind = HealthMetric(name: name) else {
                continue  // heart rate, weight...: not ours
            }
            for (e, entry) in metric.data.enumerated() {
                let location = "metrics[\(m)] \(name) data[\(e)]"
                guard let entry else {
                    warn(location, "not an object: skipped")
                    continue
                }
                // Older versions name a night's source `sleepSource`.
                let source =
                    [entry.source, entry.sleepSource].lazy.compactMap { $0 }.first { !$0.isEmpty } ?? "unknown"
                if kind == .sleep {
                    switch sleep(entry, units: metric.units, source: source) {
                    case .sample(let sample): samples.append(sample)
                    case .nothing: break
                    case .problem(let message): warn(location, message)
                    }
                    continue
                }
                let outcome = SampleFields.sample(
                    metric: name, value: entry.qty?.text, numeric: entry.qty?.number,
                    start: entry.date ?? entry.startDate, end: entry.endDate, unit: metric.units, source: source,
                    activity: nil, clock: clock)
                switch outcome {
                case .sample(let sample): samples.append(sample)
                case .nothing: break
                case .problem(let message): warn(location, message)
                }
            }
        }
        for (w, workout) in body.workouts.enumerated() {
            guard let workout else {
                warn("workouts[\(w)]", "not an object: skipped")
                continue
            }
            switch self.workout(workout) {
            case .sample(let sample): samples.append(sample)
            case .nothing: break
            case .problem(let message): warn("workouts[\(w)]", message)
            }
        }
        return (samples, warnings)
    }

    /// What the decoder found wrong with the bytes, in its words (the underlying parser's message).
    private static func reason(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return (context.underlyingError as? LocalizedError)?.errorDescription
                ?? context.underlyingError.map { "\($0)" } ?? context.debugDescription
        }
        return error.localizedDescription
    }

    private func instant(_ text: String?) -> Double? {
        guard let text, let parsed = HealthDate.parse(text) else { return nil }
        return parsed.seconds(in: clock)
    }

    private func isNotAsleep(_ entry: AutoExportPayload.Entry) -> Bool {
        guard let value = entry.value else { return false }
        return SampleFields.notAsleep.contains(value.lowercased().filter(\.isLetter))
    }

    /// An aggregated night (counted for its `date`, the wake day) or one asleep interval.
    private func sleep(_ entry: AutoExportPayload.Entry, units: String?, source: String) -> LineOutcome {
        let factor = MetricUnits.durationFactor(units ?? "hr") ?? 60
        let skipped = LineOutcome.problem("a sleep entry without dates or hours was skipped")
        func hours(_ key: String) -> Double? { entry.hours[key] }
        if let start = instant(entry.startDate), let end = instant(entry.endDate) {
            if isNotAsleep(entry) { return .nothing }
            if end <= start { return skipped }
            if let problem = SampleFields.implausibleInterval(start, end) { return .problem(problem) }
            return .sample(
                MetricSample(
                    metric: .sleep, value: (end - start) / 60, start: Date(timeIntervalSince1970: start),
                    end: Date(timeIntervalSince1970: end), source: source))
        }
        guard let dateText = entry.date, let wake = LocalDay(dateText.prefix(10)) else {
            return isNotAsleep(entry) ? .nothing : skipped
        }
        let given = ["totalSleep", "asleep", "core", "deep", "rem"].compactMap(hours)
        if let negative = given.first(where: { $0 < 0 }) {
            return .problem(HealthMetric.sleep.implausibility(of: negative * factor) ?? "negative sleep")
        }
        let stages = ["asleep", "core", "deep", "rem"].compactMap(hours).reduce(0, +)
        let total = hours("totalSleep").flatMap { $0 > 0 ? $0 : nil } ?? stages
        guard total > 0 else {
            // A night only in bed (a phone without a watch): in bed is not asleep, here as everywhere.
            let inBed = hours("inBed") ?? 0
            return isNotAsleep(entry) || inBed > 0 ? .nothing : skipped
        }
        if let problem = HealthMetric.sleep.implausibility(of: total * factor) { return .problem(problem) }
        // A night total: no end, starting at the wake day's start, so it counts for that day.
        return .sample(
            MetricSample(
                metric: .sleep, value: total * factor, start: clock.start(of: wake), end: nil, source: source))
    }

    private func workout(_ entry: AutoExportPayload.Workout) -> LineOutcome {
        let skipped = LineOutcome.problem("a workout without a readable start was skipped")
        guard let start = instant(entry.start) else { return skipped }
        var end = instant(entry.end)
        let minutes = entry.minutes
        if let minutes, let problem = HealthMetric.workoutMinutes.implausibility(of: minutes) {
            return .problem(problem)
        }
        if end == nil, let minutes { end = start + minutes * 60 }
        guard let end, end >= start else { return skipped }
        if let problem = SampleFields.implausibleInterval(start, end) { return .problem(problem) }
        let value = minutes ?? (end - start) / 60
        return .sample(
            MetricSample(
                metric: .workouts, value: value, start: Date(timeIntervalSince1970: start),
                end: Date(timeIntervalSince1970: end), source: entry.source ?? "Health Auto Export",
                activity: ActivityNames.normalized(entry.name ?? "")))
    }
}
