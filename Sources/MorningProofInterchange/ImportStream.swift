import Foundation
import MorningProofCore

/// The habits of an import handed over one at a time, so that an import holds one habit's entries
/// at once and never the whole file's: a Loop backup of a million repetitions is read habit by habit
/// while the store writes them (issue 41's memory bound). A file read whole (`ImportBatch`) is a
/// stream too. Read once, by one reader at a time: the store that imports it.
public final class ImportStream: @unchecked Sendable {
    /// The next habit read and where it came from; nil at the end. Warnings go to the batch given.
    public typealias Reader = (inout ImportBatch) throws -> (habit: PortableHabit, origin: ImportWarning.Origin)?

    /// Holds the warnings so far and the names handed over (never the habits' entries).
    private var seen: ImportBatch
    private let read: Reader
    /// Habits read ahead (`readAhead`), handed over first.
    private var ahead: [PortableHabit] = []

    /// A stream of what `read` reads, after the warnings `found` already holds.
    public init(found: ImportBatch = ImportBatch(), read: @escaping Reader) {
        seen = found
        seen.habits = []
        self.read = read
    }

    /// The habits of a batch already read whole.
    public convenience init(_ batch: ImportBatch) {
        var remaining = batch.habits[...]
        self.init(found: batch) { _ in
            remaining.popFirst().map { ($0, ImportWarning.Origin(file: "", place: .path(""))) }
        }
    }

    /// The rows left out so far (every one once the stream has ended), past the first
    /// `ImportBatch.warningsKept` as one that counts them.
    public var warnings: [ImportWarning] { seen.warningsToShow }

    /// The next habit with its entries; nil at the end. A second habit of a name already handed
    /// over (in any case) is left out with a warning, as `ImportBatch.add` does.
    public func next() throws -> PortableHabit? {
        if !ahead.isEmpty { return ahead.removeFirst() }
        return try readNext()
    }

    /// Reads habits ahead until they hold `entries` entries or the stream ends, to be handed over
    /// first: a file that small is read whole before the store's transaction begins (which then
    /// only writes), and a larger one holds at most that many entries more than one habit's.
    public func readAhead(entries: Int) throws {
        var held = ahead.reduce(0) { $0 + $1.entries.count }
        while held < entries, let habit = try readNext() {
            ahead.append(habit)
            held += habit.entries.count
        }
    }

    private func readNext() throws -> PortableHabit? {
        while let (habit, origin) = try read(&seen) {
            let count = seen.habits.count
            seen.add(PortableHabit(habit.habit), from: origin)
            if seen.habits.count > count { return habit }
        }
        return nil
    }

    /// Every habit that is left, read into one batch (for callers that want the whole file).
    public func batch() throws -> ImportBatch {
        var habits: [PortableHabit] = []
        while let habit = try next() { habits.append(habit) }
        var batch = ImportBatch(habits: habits, warnings: seen.warnings)
        batch.warningsNotKept = seen.warningsNotKept
        return batch
    }
}
