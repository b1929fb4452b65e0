import Foundation
import Testing

/// Streaks as a person replays them from the shell with --now: DST, travel, skips, reports.
@Suite struct StreakCommandTests {
    func habitStatus(_ cli: CLI, _ now: String) throws -> [String: Any] {
        let status = try cli.json(["status"], now: now) as? [String: Any]
        return (status?["habits"] as? [[String: Any]])?.first ?? [:]
    }

    @Test func aWeekAcrossTheSpringForwardKeepsItsDays() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let ny = ["TZ": "America/New_York"]
        #expect(
            try cli.run(["config", "set", "timezone", "America/New_York"], now: "2026-03-04T12:00:00Z").status == 0)
        #expect(try cli.run(["config", "set", "day-start", "03:00"], now: "2026-03-04T12:00:00Z").status == 0)
        #expect(try cli.run(["habit", "add", "Read"], now: "2026-03-04T12:00:00Z", environment: ny).status == 0)
        // 00:30 local counts for the day before (day start 03:00), on both sides of the DST change.
        for (instant, day) in [
            ("2026-03-05T05:30:00Z", "2026-03-04"), ("2026-03-06T12:00:00Z", "2026-03-06"),
            ("2026-03-07T12:00:00Z", "2026-03-07"), ("2026-03-08T07:30:00Z", "2026-03-08"),
            ("2026-03-09T04:30:00Z", "2026-03-08"),
        ] {
            let result = try cli.json(["done", "read"], now: instant) as? [String: Any]
            #expect(result?["day"] as? String == day, "\(instant)")
        }
        // 2026-03-05 was never done: the streak runs 06..08.
        let read = try habitStatus(cli, "2026-03-09T13:00:00Z")
        #expect(read["currentStreak"] as? Int == 3)
        #expect(read["longestStreak"] as? Int == 3)
        #expect(read["state"] as? String == "pending")
        #expect(read["daysUntilBreak"] as? Int == 0)
    }

    @Test func anEmptyTravelDayBridgesTheStreak() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(
            try cli.run(["config", "set", "timezone", "Pacific/Honolulu"], now: "2026-05-01T00:00:00Z").status == 0)
        #expect(try cli.run(["habit", "add", "Stretch"], now: "2026-05-01T18:00:00Z").status == 0)
        for day in ["01", "02", "03"] {
            #expect(try cli.run(["done", "stretch"], now: "2026-05-\(day)T18:00:00Z").status == 0)
        }
        // Fly to Tokyo on 2026-05-04 (Honolulu) which is 2026-05-05 there; nothing done on either day.
        #expect(try cli.run(["config", "set", "timezone", "Asia/Tokyo"], now: "2026-05-04T20:00:00Z").status == 0)
        let report = try cli.json(["report", "--from", "2026-05-01"], now: "2026-05-06T00:00:00Z") as? [String: Any]
        let stretch = (report?["habits"] as? [[String: Any]])?.first ?? [:]
        let states = (stretch["days"] as? [[String: Any]] ?? []).map { "\($0["day"] ?? "") \($0["state"] ?? "")" }
        #expect(
            states == [
                "2026-05-01 done", "2026-05-02 done", "2026-05-03 done", "2026-05-04 travel", "2026-05-05 travel",
                "2026-05-06 open",
            ])
        #expect(stretch["currentStreak"] as? Int == 3)
    }

    @Test func reportsInJSONAndCSV() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Read"], now: "2026-03-01T08:00:00Z").status == 0)
        for day in ["01", "02", "03", "05", "06"] {
            #expect(try cli.run(["done", "read", "--date", "2026-03-\(day)"], now: "2026-03-07T08:00:00Z").status == 0)
        }
        #expect(try cli.run(["skip", "read", "--date", "2026-03-04"], now: "2026-03-07T08:00:00Z").status == 0)
        let report = try cli.json(["report", "read", "--weeks", "1"], now: "2026-03-07T08:00:00Z") as? [String: Any]
        let read = (report?["habits"] as? [[String: Any]])?.first ?? [:]
        #expect(read["currentStreak"] as? Int == 5)
        #expect(read["longestStreak"] as? Int == 5)
        #expect(read["longestStreakStart"] as? String == "2026-03-01")
        #expect(read["longestStreakEnd"] as? String == "2026-03-06")
        #expect(read["totalDone"] as? Int == 5)
        #expect(read["completionRate7"] as? Double == 1.0)
        for key in ["completionRate30", "completionRate365", "score", "days"] { #expect(read[key] != nil, "\(key)") }
        let csv = try cli.run(["report", "--format", "csv"], now: "2026-03-07T08:00:00Z").stdout.split(separator: "\n")
        #expect(csv.first?.hasPrefix("habit,currentStreak,longestStreak,longestStreakStart") == true)
        #expect(csv.last?.hasPrefix("Read,5,5,2026-03-01,2026-03-06,1.0,1.0,1.0,") == true)
    }
}
