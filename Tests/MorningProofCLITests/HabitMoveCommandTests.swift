import Foundation
import Testing

/// `habit move NAME --to N`: the order status and lists show, as a script sees it.
@Suite struct HabitMoveCommandTests {
    @Test func aHabitMovesAndStatusAndListFollow() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let now = "2026-03-02T08:00:00Z"
        for name in ["Make bed", "Read", "Walk"] {
            #expect(try cli.run(["habit", "add", name], now: now).status == 0)
        }
        let moved = try cli.run(["habit", "move", "walk", "--to", "1"], now: now)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout == "1. Walk\n2. Make bed\n3. Read\n")
        let list = try cli.run(["habit", "list"], now: now)
        #expect(
            list.stdout.components(separatedBy: "\n").compactMap { $0.split(separator: " ").first } == [
                "Walk", "Make", "Read",
            ])
        let status = try cli.run(["status", "--json"], now: now)
        let names = (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])?["habits"]
            .flatMap { $0 as? [[String: Any]] }?.compactMap { $0["name"] as? String }
        #expect(names == ["Walk", "Make bed", "Read"])
        // A new habit comes last; a place past the end is a usage error that changes nothing.
        #expect(try cli.run(["habit", "add", "Swim"], now: now).status == 0)
        let past = try cli.run(["habit", "move", "read", "--to", "5"], now: now)
        #expect(past.status == 64 && past.stderr.contains("there are 4 active habits"), "\(past.stderr)")
        let json = try cli.run(["habit", "move", "swim", "--to", "2", "--json"], now: now)
        let order = (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?
            .compactMap { $0["name"] as? String }
        #expect(order == ["Walk", "Swim", "Make bed", "Read"])
    }
}

/// `habit show` says how far a weekly target's week is, as `period` counts it.
@Suite struct HabitPeriodCommandTests {
    @Test func showSaysThePeriodInWords() throws {
        let cli = try CLI()
        defer { cli.remove() }
        // 2026-11-23 is a Monday, the default week start.
        #expect(
            try cli.run(["habit", "add", "Gym", "--times", "3", "--per", "week"], now: "2026-11-23T08:00:00Z").status
                == 0)
        #expect(try cli.run(["done", "gym"], now: "2026-11-23T09:00:00Z").status == 0)
        let shown = try cli.run(["habit", "show", "gym"], now: "2026-11-26T09:00:00Z")
        #expect(shown.stdout.contains("  1 of 3 this week (2026-11-23 to 2026-11-29)\n"), "\(shown.stdout)")
        let json = try cli.run(["habit", "show", "gym", "--json"], now: "2026-11-26T09:00:00Z")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["period"] as? [String: Any])?["words"] as? String == "1 of 3 this week")
        #expect(object?["times"] as? Int == 3 && object?["per"] as? String == "week")
    }
}

/// `habit edit --no-remind/--no-note/--no-goal/--no-activity`: what the API's null clears, from the CLI.
@Suite struct HabitClearCommandTests {
    @Test func theNoFlagsClearAndRefuseAFieldGivenAndClearedAtOnce() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let now = "2026-03-02T08:00:00Z"
        let add = ["habit", "add", "Run", "--remind-at", "07:00", "--note", "shoes by the door", "--metric", "workouts",
            "--at-least", "1", "--activity", "running"]
        #expect(try cli.run(add, now: now).status == 0)
        func shown() throws -> [String: Any] {
            let json = try cli.run(["habit", "show", "run", "--json"], now: now).stdout
            return try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] ?? [:]
        }
        // Given and cleared at once: a usage error naming the option, and nothing changes.
        let both = try cli.run(["habit", "edit", "run", "--remind-at", "08:00", "--no-remind"], now: now)
        #expect(both.status == 64 && both.stderr.contains("--remind-at"), "\(both.stderr)")
        #expect(try shown()["remindAt"] as? String == "07:00")
        let cleared = try cli.run(["habit", "edit", "run", "--no-remind", "--no-note", "--no-activity"], now: now)
        #expect(cleared.status == 0, "\(cleared.stderr)")
        var habit = try shown()
        #expect(habit["remindAt"] == nil && habit["note"] == nil)
        #expect((habit["goal"] as? [String: Any])?["activity"] == nil && habit["goal"] != nil)
        // A metric habit without a goal is refused; with another kind it becomes a plain habit.
        let alone = try cli.run(["habit", "edit", "run", "--no-goal"], now: now)
        #expect(alone.status == 64 && alone.stderr.contains("needs a goal"), "\(alone.stderr)")
        #expect(try cli.run(["habit", "edit", "run", "--no-goal", "--kind", "manual"], now: now).status == 0)
        habit = try shown()
        #expect(habit["goal"] == nil && habit["kind"] as? String == "manual")
    }
}
