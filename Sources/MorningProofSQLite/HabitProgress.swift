import Foundation
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase {
    /// Every habit's progress as of `today`, each judged from its creation day (or today, for a
    /// habit created "later" by a clock change) with the account's travel days and week start. With a `need` short of `.all`, a habit whose stored
    /// state (`HabitStateStore`) is sound is judged only from a little before that state's last
    /// day (or from what `need` asks); the others are judged whole, and their states rebuilt.
    public func progress(of habits: [Habit], today: LocalDay, need: HistoryNeed = .all) async throws -> [HabitProgress] {
        let (progress, unsound) = try await asyncRead { db in
            let context = try HabitStateContext.of(db, accountID: accountID)
            let stored = need == .all ? [:] : try Self.storedCheckpoints(db, of: habits, context: context)
            var unsound: [Int64] = []
            let progress = try habits.map { habit in
                let checkpoint = stored[habit.id]
                if need != .all && checkpoint == nil { unsound.append(habit.id) }
                let reading = HabitReading(habit, today: today, need: need, checkpoint: checkpoint, context: context)
                let recorded = try Self.dayStatuses(db, habitID: habit.id, from: reading.origin)
                return HabitProgress(habit: habit, timeline: reading.timeline(recorded: recorded))
            }
            return (progress, unsound)
        }
        await rebuildHabitStates(unsound)
        return progress
    }
}
