import Foundation
import MorningProofCore

/// Reads Health Auto Export JSON: `{"data": {"metrics": [{"name", "units", "data": [...]}], "workouts": [...]}}`.
/// Sleep comes either as aggregated nights (`date` = wake day, hours in `totalSleep` or
/// `asleep`+`core`+`deep`+`rem`; a night with only `inBed` hours is no sleep) or as stage
/// intervals (`startDate`, `endDate`, `value`).
public struct HealthAutoExportReader {
    let clock: DayClock

    public init(clock: DayClock) { self.clock = clock }

    /// The file at `path` as rows to store, with the number of records read, the first 50
    /// warnings and how many there were; messages and warnings name the file as `shownAs`
    /// (default: its path). The file is read a chunk at a time: memory holds its rows, not its JSON.
    public func readFile(_ path: String, shownAs name: String? = nil) throws -> (
        batch: MetricBatch, recordsRead: Int, warnings: [ReadWarning], warningCount: Int
    ) {
        let name = name ?? path
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        } catch {
            throw MetricFileError(
                .unreadable, path: name, "\(name): \(error.localizedDescription)", cause: error.localizedDescription)
        }
        defer { try? handle.close() }
        var json = JSONChunkReader { try handle.read(upToCount: JSONChunkReader.chunkSize) }
        var batch = MetricBatch()
        var (recordsRead, warningCount) = (0, 0)
        var warnings: [ReadWarning] = []
        let clock = clock
        try read(&json, file: name) { sample in
            // `{qty, date}` is the period's total so far (a day's or an hour's steps), sent again as it
            // grows: the largest send counts, never their sum.
            SampleRows.add(sample, to: &batch, clock: clock, pointsAreBuckets: true)
            recordsRead += 1
        } warn: { warning in
            warningCount += 1
            if warnings.count < 50 { warnings.append(warning) }
        }
        return (batch, recordsRead, warnings, warningCount)
    }

    /// The samples of a whole file and a warning for each entry that could not be read; the bytes
    /// are walked `chunkSize` at a time, as a file is.
    public func read(_ data: Data, file: String, chunkSize: Int = 1 << 20) throws -> (
        samples: [MetricSample], warnings: [ReadWarning]
    ) {
        var json = JSONChunkReader(data: data, chunkSize: chunkSize)
        var samples: [MetricSample] = []
        var warnings: [ReadWarning] = []
        try read(&json, file: file) {
            samples.append($0)
        } warn: {
            warnings.append($0)
        }
        return (samples, warnings)
    }

    /// Walks `json`, handing each sample to `take` (the metrics' first, then the workouts') and each
    /// warning to `warn`. Nothing is handed on for input that is then refused: the caller keeps
    /// what it was given only when this returns.
    private func read(
        _ json: inout JSONChunkReader, file: String, take: (MetricSample) -> Void, warn: (ReadWarning) -> Void
    ) throws {
        var workoutSamples: [MetricSample] = []
        var workoutWarnings: [ReadWarning] = []
        func entries(
            _ metric: Int, _ name: String, _ units: String?, _ first: Int, _ entries: [AutoExportPayload.Entry?]
        ) {
            guard let kind = HealthMetric(name: name) else { return }
            for (offset, entry) in entries.enumerated() {
                let location = "metrics[\(metric)] \(name) data[\(first + offset)]"
                outcome(of: entry, kind: kind, name: name, units: units) { outcome in
                    switch outcome {
                    case .sample(let sample): take(sample)
                    case .nothing: break
                    case .problem(let message): warn(ReadWarning(file: file, location: location, message: message))
                    }
                }
            }
        }
        func workouts(_ first: Int, _ workouts: [AutoExportPayload.Workout?]) {
            for (offset, workout) in workouts.enumerated() {
                let location = "workouts[\(first + offset)]"
                switch workout.map(self.workout) ?? .problem("not an object: skipped") {
                case .sample(let sample): workoutSamples.append(sample)
                case .nothing: break
                case .problem(let message):
                    workoutWarnings.append(ReadWarning(file: file, location: location, message: message))
                }
            }
        }
        do {
            try AutoExportPayload.walk(&json, entries: entries, workouts: workouts) { location in
                warn(ReadWarning(file: file, location: location, message: "larger than 1 MB: skipped"))
            }
        } catch let shape as AutoExportPayload.NotAList {
            throw MetricFileError(
                .notMetrics, path: file, "\(file): not a Health Auto Export file (\"data.\(shape.key)\" is not a list)")
        } catch let shape as AutoExportPayload.NotThePayload {
            throw MetricFileError(.notMetrics, path: file, "\(file): not a Health Auto Export file (\(shape.what))")
        } catch let broken as JSONChunkReader.Broken {
            throw MetricFileError(
                .notMetrics, path: file, "\(file): the JSON is broken or cut short (\(broken.reason))",
                cause: broken.reason)
        } catch let error as MetricFileError {
            throw error
        } catch {
            // The file could not be read on (a disk error): not the file's fault.
            throw MetricFileError(
                .unreadable, path: file, "\(file): \(error.localizedDescription)", cause: error.localizedDescription)
        }
        workoutSamples.forEach(take)
        workoutWarnings.forEach(warn)
    }

    /// One entry of a metric of kind `kind`, handed to `outcome` as a sample, nothing or a problem.
    private func outcome(
        of entry: AutoExportPayload.Entry?, kind: HealthMetric, name: String, units: String?,
        _ outcome: (LineOutcome) -> Void
    ) {
        guard let entry else { return outcome(.problem("not an object: skipped")) }
        // Older versions name a night's source `sleepSource`.
        let source = [entry.source, entry.sleepSource].lazy.compactMap { $0 }.first { !$0.isEmpty } ?? "unknown"
        if kind == .sleep { return outcome(sleep(entry, units: units, source: source)) }
        outcome(
            SampleFields.sample(
                metric: name, value: entry.qty?.text, numeric: entry.qty?.number,
                start: entry.date ?? entry.startDate, end: entry.endDate, unit: units, source: source,
                activity: nil, clock: clock))
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
