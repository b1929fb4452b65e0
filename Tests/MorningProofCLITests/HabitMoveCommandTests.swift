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
