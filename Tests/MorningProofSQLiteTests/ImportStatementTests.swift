import Foundation
import GRDB
import MorningProofCore
import MorningProofInterchange
import Testing

@testable import MorningProofSQLite
import MorningProofStoreContract

/// An applied import writes inside one transaction, which others wait for: it must not look each new
/// entry up before inserting it. That lookup, built anew through GRDB's query interface for each of
/// 100,000 entries, held the write lock 26 s for a Loop backup of 50 habits x 2,000 days (issue 24);
/// scripts/bench/loop-import measures the time, this counts the statements.
@Suite struct ImportStatementTests {
    final class Statements: @unchecked Sendable {
        private let lock = NSLock()
        private var sql: [String] = []
        func note(_ text: String) { lock.withLock { sql.append(text) } }
        var all: [String] { lock.withLock { sql } }
    }

    @Test func anImportReadsNoEntryBackWhileItWrites() async throws {
        let database = try AppDatabase.inMemory()
        let now = ISOInstant.parse("2026-03-09T12:00:00Z")!
        let first = LocalDay("2025-01-01")!
        let entries = (0..<400).map { day in
            PortableEntry(
                day: first.adding(days: day), status: day % 7 == 0 ? .skipped : .done, source: .import,
                recordedAt: now, zone: "UTC")
        }
        let habits = (1...5).map {
            PortableHabit(name: "Habit \($0)", createdDay: first, createdAt: now, entries: entries)
        }
        let statements = Statements()
        try await database.writer.writeWithoutTransaction { db in
            db.trace { statements.note("\($0)") }
        }
        let plan = try await database.importBatch(ImportBatch(habits: habits), merge: true, apply: true)
        #expect(plan.entriesAdded == 2_000)
        let entryReads = statements.all.filter { $0.hasPrefix("SELECT") && $0.contains("entry") }
        #expect(entryReads.count < 20, "\(entryReads.count) reads of entry, e.g. \(entryReads.prefix(2))")
        let stored = try database.dayStatuses()
        #expect(stored.count == 5 && stored.values.allSatisfy { $0.count == 400 })
    }
}
