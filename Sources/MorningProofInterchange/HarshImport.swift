import Foundation
import MorningProofCore

/// harsh's rules, as our schedules and entries.
public enum HarshRules {
    /// `1` daily, `N` every N days, `Nw` every N weeks, `T/I` T times in any I days (either side may
    /// carry `w`), `0` track only: harsh's target and interval, or nil for a frequency harsh refuses.
    public static func frequency(_ text: String) -> (target: Int, interval: Int)? {
        func days(_ part: Substring) -> Int? {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            let digits = trimmed.prefix(while: \.isNumber)
            guard let number = Int(digits) else { return nil }
            switch trimmed.dropFirst(digits.count) {
            case "": return number
            case "w":
                // Checked: `2000000000000000000w` would overflow, and harsh refuses it too.
                let (weeks, overflow) = number.multipliedReportingOverflow(by: 7)
                return overflow ? nil : weeks
            default: return nil
            }
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard let first = parts.first.flatMap(days) else { return nil }
        if parts.count == 1 { return first == 0 ? (0, 1) : (1, first) }
        guard parts.count == 2, let interval = days(parts[1]), interval > 0, first <= interval else { return nil }
        return (first, interval)
    }

    /// Our schedule for harsh's target and interval: a target of one in N days is every N days, T in
    /// I days is `--times T --in I` (the same rolling-window rule), and track only (target 0) is daily.
    /// Nil for intervals over a year, which we do not keep.
    public static func schedule(target: Int, interval: Int) -> Schedule? {
        guard interval <= 365 else { return nil }
        if target == 0 || target >= interval { return .daily }
        return target == 1 ? .everyDays(interval) : .timesInDays(times: target, days: interval)
    }

    /// `y` done (with the amount, when not 0), `s` skipped, `n` not done; nil for anything else.
    public static func outcome(_ result: String, amount: Double?) -> DayOutcome? {
        switch result {
        case "y": .done(value: amount == 0 ? nil : amount)
        case "s": .skipped
        case "n": .notDone
        default: nil
        }
    }
}

/// Reads harsh's `habits` file (`Name: frequency[: end date]`, `! Heading`, `# comment`) and its `log`
/// (`YYYY-MM-DD : Habit : y|n|s[ : comment[ : amount]]`, the later line winning for a repeated day).
public enum HarshImport {
    struct HabitLine {
        var name: String
        var heading: String?
        var target: Int
        var schedule: Schedule
        var end: LocalDay?
        var origin: ImportWarning.Origin
    }

    struct LogLine {
        var outcome: DayOutcome
        var comment: String?
        var origin: ImportWarning.Origin
    }

    /// `habitsFile` and `logFile` name the two files in warnings.
    public static func batch(
        habits: String, log: String, habitsFile: String, logFile: String, context: ImportContext
    ) -> ImportBatch {
        var batch = ImportBatch()
        var refused = Set<String>()
        let habitLines = readHabits(habits, file: habitsFile, context: context, batch: &batch, refused: &refused)
        var days: [String: [LocalDay: LogLine]] = [:]
        var unknown: [String: (origin: ImportWarning.Origin, count: Int)] = [:]
        for (number, text) in lines(log) {
            let origin = ImportWarning.Origin(file: logFile, place: .line(number))
            guard let (name, day, line) = readLogLine(text, origin: origin, batch: &batch) else { continue }
            if habitLines.contains(where: { $0.name == name }) {
                days[name, default: [:]][day] = line
            } else if !refused.contains(name) {
                unknown[name, default: (origin, 0)].count += 1
            }
        }
        for (name, place) in unknown.sorted(by: { $0.key < $1.key }) {
            batch.warn(
                place.origin,
                "no habit \"\(name)\" in \(habitsFile); its \(place.count) log line\(place.count == 1 ? "" : "s") left out")
        }
        for habitLine in habitLines {
            batch.add(habit(habitLine, days[habitLine.name] ?? [:], context: context, batch: &batch), from: habitLine.origin)
        }
        return batch
    }

    static func lines(_ text: String) -> [(number: Int, text: String)] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            (index + 1, String(line.hasSuffix("\r") ? line.dropLast() : line))
        }
    }

    static func readHabits(
        _ text: String, file: String, context: ImportContext, batch: inout ImportBatch, refused: inout Set<String>
    ) -> [HabitLine] {
        var heading: String?
        var habits: [HabitLine] = []
        for (number, line) in lines(text) where !line.isEmpty && !line.hasPrefix("#") {
            let origin = ImportWarning.Origin(file: file, place: .line(number))
            if line.hasPrefix("!") {
                guard let range = line.range(of: "! ") else {
                    batch.warn(origin, "a heading is \"! Name\"; line left out")
                    continue
                }
                heading = String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
                continue
            }
            let parts = line.components(separatedBy: ": ").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count >= 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                batch.warn(origin, "a habit is \"Name: frequency[: YYYY-MM-DD]\"; line left out")
                continue
            }
            let name: String
            do {
                name = try context.name(parts[0])
            } catch let error as MorningProofError {
                refused.insert(parts[0])
                batch.warn(origin, "\(error.message); habit and its log lines left out")
                continue
            } catch { continue }
            guard let (target, interval) = HarshRules.frequency(parts[1]),
                let schedule = HarshRules.schedule(target: target, interval: interval)
            else {
                refused.insert(name)
                batch.warn(origin, "\"\(name)\": frequency \"\(parts[1])\" is not 0, N, Nw or T/I (up to 365 days); habit and its log lines left out")
                continue
            }
            var end: LocalDay?
            if parts.count >= 3, !parts[2].isEmpty {
                guard let day = LocalDay(parts[2]), LocalDay.supported.contains(day) else {
                    refused.insert(name)
                    batch.warn(origin, "\"\(name)\": end date \"\(parts[2])\" is not YYYY-MM-DD; habit and its log lines left out")
                    continue
                }
                end = day
            }
            habits.append(HabitLine(name: name, heading: heading, target: target, schedule: schedule, end: end, origin: origin))
        }
        return habits
    }

    static func readLogLine(
        _ text: String, origin: ImportWarning.Origin, batch: inout ImportBatch
    ) -> (String, LocalDay, LogLine)? {
        if text.trimmingCharacters(in: .whitespaces).isEmpty || text.hasPrefix("#") { return nil }
        let fields = text.components(separatedBy: " : ")
        guard (3...5).contains(fields.count) else {
            batch.warn(origin, "a log line is \"YYYY-MM-DD : Habit : y|n|s : comment : amount\"; left out")
            return nil
        }
        guard let day = LocalDay(fields[0].trimmingCharacters(in: .whitespaces)), LocalDay.supported.contains(day) else {
            batch.warn(origin, "bad date \"\(fields[0])\"; left out")
            return nil
        }
        let name = fields[1].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
            batch.warn(origin, "no habit name; left out")
            return nil
        }
        var amount: Double?
        if fields.count == 5 {
            let text = fields[4].trimmingCharacters(in: .whitespaces)
            if let number = Double(text), number.isFinite {
                amount = number
            } else if !text.isEmpty {
                batch.warn(origin, "amount \"\(text)\" is not a number; the day is kept without it")
            }
        }
        let result = fields[2].trimmingCharacters(in: .whitespaces)
        guard let outcome = HarshRules.outcome(result, amount: amount) else {
            batch.warn(origin, "result \"\(result)\" is not y, n or s; left out")
            return nil
        }
        let comment = fields.count >= 4 ? fields[3] : nil
        return (name, day, LogLine(outcome: outcome, comment: comment, origin: origin))
    }

    static func habit(
        _ line: HabitLine, _ days: [LocalDay: LogLine], context: ImportContext, batch: inout ImportBatch
    ) -> PortableHabit {
        var habit = context.habit(line.name, schedule: line.schedule, firstDay: days.keys.min())
        var notes: [String] = []
        if let heading = line.heading, !heading.isEmpty { notes.append("harsh heading: \(heading)") }
        if line.target == 0 { notes.append("harsh: track only (frequency 0)") }
        if let end = line.end {
            notes.append("harsh: ended \(end)")
            habit.archived = end < context.today
        }
        var problem: String?
        habit.note = context.note(notes.joined(separator: "; "), problem: &problem)
        if let problem { batch.warn(line.origin, problem) }
        var afterEnd = 0
        for (day, log) in days.sorted(by: { $0.key < $1.key }) {
            if let end = line.end, day > end {
                afterEnd += 1
                continue
            }
            if day > context.today {
                batch.warn(log.origin, "\(day) is after today (\(context.today)); left out")
                continue
            }
            var noteProblem: String?
            let note = context.note(log.comment, problem: &noteProblem)
            if let noteProblem { batch.warn(log.origin, noteProblem) }
            if let entry = context.entry(day, log.outcome, note: note) { habit.entries.append(entry) }
        }
        if afterEnd > 0, let end = line.end {
            batch.warn(
                line.origin,
                "\"\(line.name)\": \(afterEnd) log line\(afterEnd == 1 ? "" : "s") after its end date \(end) left out, as harsh ignores them"
            )
        }
        return habit
    }
}
