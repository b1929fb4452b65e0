import Foundation
import MorningProofCore

/// Turns Loop Habit Tracker's habits and repetitions into portable habits (`LoopRules` for each value).
public enum LoopImport {
    public static func batch(_ backup: LoopBackup, context: ImportContext) -> ImportBatch {
        var batch = ImportBatch(warnings: backup.warnings)
        var byHabit: [Int64: [LoopBackup.Repetition]] = [:]
        let known = Set(backup.habits.map(\.id))
        for repetition in backup.repetitions {
            guard let id = repetition.habitID, known.contains(id) else {
                noHabit(repetition, batch: &batch)
                continue
            }
            byHabit[id, default: []].append(repetition)
        }
        for record in ordered(backup.habits) {
            if let habit = habit(record, byHabit[record.id] ?? [], context: context, batch: &batch) {
                batch.add(habit, from: record.origin)
            }
        }
        return batch
    }

    /// The habits of a backup read one at a time (`repetitions` reads one habit's repetitions when
    /// its turn comes), after the warnings `found` holds: what `batch` gives, holding one habit's
    /// repetitions at a time. The reader finds the repetitions of no habit itself.
    public static func stream(
        habits: [LoopBackup.Habit], found: ImportBatch, context: ImportContext,
        repetitions: @escaping (LoopBackup.Habit) throws -> [LoopBackup.Repetition]
    ) -> ImportStream {
        var remaining = ordered(habits)[...]
        return ImportStream(found: found) { batch in
            while let record = remaining.popFirst() {
                if let habit = habit(record, try repetitions(record), context: context, batch: &batch) {
                    return (habit, record.origin)
                }
            }
            return nil
        }
    }

    /// Leaves out a repetition whose habit the backup does not hold, with a warning.
    public static func noHabit(_ repetition: LoopBackup.Repetition, batch: inout ImportBatch) {
        batch.warn(repetition.origin, "no habit with id \(repetition.habitID.map(String.init) ?? "NULL"); left out")
    }

    /// Loop's order: by position, then id (a habit without a position last).
    static func ordered(_ habits: [LoopBackup.Habit]) -> [LoopBackup.Habit] {
        habits.sorted { ($0.position ?? Int.max, $0.id) < ($1.position ?? Int.max, $1.id) }
    }

    private static func habit(
        _ record: LoopBackup.Habit, _ repetitions: [LoopBackup.Repetition], context: ImportContext,
        batch: inout ImportBatch
    ) -> PortableHabit? {
        let name: String
        do {
            name = try context.name(record.name ?? "")
        } catch let error as MorningProofError {
            batch.warn(record.origin, "\(error.message); habit and its repetitions left out")
            return nil
        } catch {
            return nil
        }
        guard let numerator = record.numerator, let denominator = record.denominator,
            let schedule = LoopRules.schedule(numerator: numerator, denominator: denominator)
        else {
            let frequency =
                "\(record.numerator.map(String.init) ?? "NULL")/\(record.denominator.map(String.init) ?? "NULL")"
            batch.warn(record.origin, "\"\(name)\": frequency \(frequency) is not one Loop writes; habit left out")
            return nil
        }
        let numerical = record.type == 1
        let atMost = record.targetType == 1
        let target = record.targetValue ?? 0
        let unit = record.unit?.trimmingCharacters(in: .whitespaces) ?? ""
        let days = repetitions.compactMap { $0.timestamp.flatMap(LoopRules.day(timestamp:)) }
        var habit = context.habit(name, schedule: schedule, firstDay: days.min())
        habit.archived = record.archived
        habit.remindAt = LoopRules.reminder(hour: record.reminderHour, minute: record.reminderMinute)
        // Loop's description, else its question ("Did you meditate this morning?"), is the habit's note.
        var noteParts = [record.description, record.question].compactMap { $0 }.filter { !$0.isEmpty }
        noteParts = Array(noteParts.prefix(1))
        if numerical {
            if let goal = LoopRules.goal(unit: unit, atMost: atMost, target: target) {
                do {
                    try goal.validate()
                } catch let error as MorningProofError {
                    batch.warn(record.origin, "\"\(name)\": \(error.message); habit and its repetitions left out")
                    return nil
                } catch {
                    return nil
                }
                habit.kind = .metric
                habit.goal = goal
            } else {
                let amount = HealthMetric.format(target) + (unit.isEmpty ? "" : " \(unit)")
                noteParts.append("Loop target: \(atMost ? "at most" : "at least") \(amount)")
            }
        }
        var problem: String?
        habit.note = context.note(noteParts.joined(separator: "; "), problem: &problem)
        if let problem { batch.warn(record.origin, "\"\(name)\": \(problem)") }
        var entries: [LocalDay: PortableEntry] = [:]
        var lostNotes = 0
        for repetition in repetitions {
            guard let timestamp = repetition.timestamp, let day = LoopRules.day(timestamp: timestamp),
                let value = repetition.value
            else {
                batch.warn(repetition.origin, "no timestamp or value; left out")
                continue
            }
            if day > context.today {
                batch.warn(repetition.origin, "\(day) is after today (\(context.today)); left out")
                continue
            }
            var noteProblem: String?
            let note = context.note(repetition.notes, problem: &noteProblem)
            if let noteProblem { batch.warn(repetition.origin, noteProblem) }
            guard let outcome = LoopRules.outcome(value: value, numerical: numerical, atMost: atMost, target: target)
            else {
                batch.warn(repetition.origin, "value \(value) is not one Loop writes for this habit; left out")
                continue
            }
            entries[day] = context.entry(day, outcome, note: note)
            if outcome == .notDone && note != nil { lostNotes += 1 }
        }
        if lostNotes > 0 {
            batch.warn(
                record.origin,
                "\"\(name)\": \(lostNotes) note\(lostNotes == 1 ? "" : "s") on days not done or skipped left out")
        }
        habit.entries = entries.values.sorted { $0.day < $1.day }
        return habit
    }
}
