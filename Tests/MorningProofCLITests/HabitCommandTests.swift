import Foundation
import Testing

@Suite struct HabitCommandTests {
    @Test func addsAndMarksAHabitDone() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Make bed"], now: "2026-03-01T08:00:00Z").status == 0)
        let done = try cli.run(["done", "make"], now: "2026-03-01T09:00:00Z")
        #expect(done.status == 0)
        #expect(done.stdout.contains("Make bed: done today"))
        let again = try cli.run(["done", "MAKE"], now: "2026-03-01T10:00:00Z")
        #expect(again.status == 0)
        #expect(again.stdout.contains("already done"))
    }

    @Test func refusesUnknownHabitsWithUsageExit() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let result = try cli.run(["done", "nothing"], now: "2026-03-01T09:00:00Z")
        #expect(result.status == 64)
        #expect(result.stderr.contains("no habit named \"nothing\""))
    }
}
