import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MorningProofCore
import MorningProofSQLite
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import TestFixtures
import Testing

extension TestAPI {
    /// Posts a metrics file as a phone does: its bytes as the body, `type` as its Content-Type.
    func postMetrics(_ name: String, token: String, type: String = "application/json") async throws -> Reply {
        try await upload(
            "/api/metrics", token: token, at: MetricRouteTests.now, type: type,
            body: try Data(contentsOf: HealthFixtures.folder.appendingPathComponent(name)))
    }

    func metricTotals(_ token: String, from: String = "2026-03-05", to: String = "2026-03-10") async throws -> Reply {
        try await send(.get, "/api/metrics?from=\(from)&to=\(to)", token: token, at: MetricRouteTests.now)
    }
}

/// `POST /api/metrics` and `GET /api/metrics` (issue 26): each test on SQLite and PostgreSQL.
@Suite("Health data over HTTP")
struct MetricRouteTests {
    static let now = "2026-03-09T17:00:00Z"
    static let zone = "America/New_York"

    /// Runs `body` with a server of `engine` (changed by `configure`) and the token of its owner in
    /// New York: the account whose metrics the CLI imports too (account 1).
    static func withOwner<T: Sendable>(
        _ engine: Engine, _ setup: TestingSetup = .router, configure: (inout TestServer) -> Void = { _ in },
        _ body: @escaping @Sendable (TestAPI, String) async throws -> T
    ) async throws -> T {
        try await TestServer.with(engine) { server in
            var server = server
            configure(&server)
            let owner = try await server.ownerToken(zone: zone)
            return try await server.run(setup) { api in try await body(api, owner) }
        }
    }

    /// The totals `metrics show --json` prints after `metrics import` of the fixture `name`.
    static func cliTotals(of names: [String], from: String = "2026-03-05", to: String = "2026-03-10") async throws
        -> String
    {
        let database = try AppDatabase.inMemory()
        for name in names {
            _ = try await MetricImporter(database: database, clock: HealthFixtures.clock)
                .importFile(HealthFixtures.path(name))
        }
        return try SortedJSON.string(
            try await MetricDaysJSON.read(from: LocalDay(from)!, to: LocalDay(to)!, in: database))
    }

    @Test(arguments: Engine.available) func healthAutoExportJSONIsReadAsTheCLIReadsIt(engine: Engine) async throws {
        try await Self.withOwner(engine) { api, ada in
            let posted = try await api.postMetrics("health-auto-export.json", token: ada)
            #expect(posted.status == .ok, "\(posted.body)")
            #expect(posted.json["records"] as? Int == 7 && posted.json["duplicates"] as? Int == 0)
            let days = posted.json["daysTouched"] as? [String: String]
            #expect(days == ["from": "2026-03-07", "to": "2026-03-07"])
            let warnings = posted.json["warnings"] as? [[String: String]]
            #expect(warnings?.first?["where"] == "metrics[0] step_count data[2]", "\(posted.body)")
            #expect(warnings?.first?["message"]?.contains("lots") == true)

            let totals = try await api.metricTotals(ada)
            #expect(totals.status == .ok)
            #expect(totals.body == (try await Self.cliTotals(of: ["health-auto-export.json"])))
        }
    }

    @Test(arguments: Engine.available) func theSameBodyTwiceStoresNothingTheSecondTime(engine: Engine) async throws {
        try await Self.withOwner(engine) { api, ada in
            let first = try await api.postMetrics("metrics.csv", token: ada, type: "text/csv")
            #expect(first.status == .ok, "\(first.body)")
            let before = try await api.metricTotals(ada)
            let again = try await api.postMetrics("metrics.csv", token: ada, type: "text/csv")
            #expect(again.status == .ok, "\(again.body)")
            let records = try #require(first.json["records"] as? Int)
            #expect(records > 0 && again.json["records"] as? Int == records)
            #expect(again.json["duplicates"] as? Int == records)
            #expect(again.body.contains("\"daysTouched\":null"), "\(again.body)")
            #expect(try await api.metricTotals(ada).body == before.body)
            #expect(before.body == (try await Self.cliTotals(of: ["metrics.csv"])))
        }
    }

    @Test(arguments: Engine.available) func anAppleExportInAFormIsReadFromItsFilePart(engine: Engine) async throws {
        try await Self.withOwner(engine) { api, ada in
            let boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"
            var body = Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nfrom my phone\r\n".utf8)
            body += Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"export.zip\"\r\nContent-Type: application/zip\r\n\r\n"
                    .utf8)
            body += try Data(contentsOf: URL(fileURLWithPath: HealthFixtures.path("export.zip")))
            body += Data("\r\n--\(boundary)--\r\n".utf8)
            let posted = try await api.upload(
                "/api/metrics", token: ada, at: Self.now, type: "multipart/form-data; boundary=\(boundary)", body: body)
            #expect(posted.status == .ok, "\(posted.body)")
            #expect(posted.json["duplicates"] as? Int == 0 && (posted.json["records"] as? Int ?? 0) > 0)
            #expect(try await api.metricTotals(ada).body == (try await Self.cliTotals(of: ["export.zip"])))
        }
    }

    @Test(arguments: Engine.available) func oneAccountsMetricsNeverShowInAnothers(engine: Engine) async throws {
        try await Self.withOwner(engine) { api, ada in
            let bo = try await api.signUp("bo@example.com", timezone: Self.zone)
            let posted = try await api.postMetrics("health-auto-export.json", token: ada)
            #expect(posted.status == .ok, "\(posted.body)")
            let hers = try await api.metricTotals(ada)
            #expect(hers.body.contains("\"steps\""))
            let his = try await api.metricTotals(bo)
            #expect(his.status == .ok)
            let rows = try #require(his.json["days"] as? [[String: Any]])
            #expect(rows.count == 6 && rows.allSatisfy { $0.keys.sorted() == ["day"] }, "\(his.body)")

            // His own upload is his: her totals stay as they were, his are the file's.
            let his2 = try await api.postMetrics("metrics.csv", token: bo, type: "text/csv")
            #expect(his2.status == .ok && his2.json["duplicates"] as? Int == 0, "\(his2.body)")
            #expect(try await api.metricTotals(ada).body == hers.body)
            #expect(try await api.metricTotals(bo).body == (try await Self.cliTotals(of: ["metrics.csv"])))
        }
    }

    @Test(arguments: Engine.available) func anUploadCompletesTheStepsHabitItMeets(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: Self.zone)
            let habit = try await api.send(
                .post, "/api/habits", token: ada, at: "2026-03-01T12:00:00Z",
                json: #"{"name": "Walk", "metric": "steps", "atLeast": 1500}"#)
            #expect(habit.status == .created, "\(habit.body)")
            let posted = try await api.postMetrics("health-auto-export.json", token: ada)
            let completed = try #require(posted.json["completed"] as? [[String: Any]], "\(posted.body)")
            #expect(completed.count == 1, "\(posted.body)")
            #expect(
                completed.first?["habit"] as? String == "Walk" && completed.first?["day"] as? String == "2026-03-07")
            #expect(completed.first?["value"] as? Double == 2000 && completed.first?["target"] as? Double == 1500)
        }
    }

    /// Today's steps arriving complete today's goal: `GET /api/status` shows it done, from the
    /// metric, with the day's value; the same account's other habit and another account are untouched.
    @Test(arguments: Engine.available) func todaysStepsShowDoneFromTheMetricInStatus(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: Self.zone)
            let bo = try await api.signUp("bo@example.com", timezone: Self.zone)
            for token in [ada, bo] {
                _ = try await api.send(
                    .post, "/api/habits", token: token, at: "2026-03-01T12:00:00Z",
                    json: #"{"name": "Walk", "metric": "steps", "atLeast": 8000}"#)
            }
            let steps = #"""
                {"data": {"metrics": [{"name": "step_count", "units": "count",
                  "data": [{"qty": 8412, "date": "2026-03-09 00:00:00 -0400", "source": "Ada's iPhone"}]}]}}
                """#
            let posted = try await api.upload(
                "/api/metrics", token: ada, at: Self.now, type: "application/json", body: Data(steps.utf8))
            #expect((posted.json["completed"] as? [[String: Any]])?.first?["day"] as? String == "2026-03-09")
            let status = try await api.send(.get, "/api/status", token: ada, at: Self.now)
            let walk = (status.json["habits"] as? [[String: Any]])?.first
            #expect(walk?["state"] as? String == "done", "\(status.body)")
            #expect(walk?["source"] as? String == "metric" && walk?["value"] as? Double == 8412)
            let theirs = try await api.send(.get, "/api/status", token: bo, at: Self.now)
            let other = (theirs.json["habits"] as? [[String: Any]])?.first
            #expect(other?["state"] as? String == "pending" && other?["source"] == nil)
        }
    }

    @Test(arguments: Engine.available) func aDayRangeThatIsMissingWrongOrTooLongIs400(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: Self.zone)
            for query in [
                "", "?from=2026-03-01", "?to=2026-03-01", "?from=2026-3-1&to=2026-03-02",
                "?from=2026-03-02&to=2026-02-30",
                "?from=2026-03-02&to=2026-03-01", "?from=2016-02-22&to=2026-03-01",
            ] {
                let reply = try await api.send(.get, "/api/metrics\(query)", token: ada)
                #expect(reply.status == .badRequest, "\(query): \(reply.status) \(reply.body)")
                #expect(reply.errorCode != nil, "\(query): \(reply.body)")
            }
            let longest = try await api.metricTotals(ada, from: "2016-02-23", to: "2026-03-01")
            #expect(longest.status == .ok && (longest.json["days"] as? [Any])?.count == MetricDaysJSON.maxDays)
        }
    }

    /// Days outside the supported years (`SupportedDay`, 1900-01-01 to 9998-12-31) were read, as the
    /// entries and report routes do not (issue 38): now 400 naming the field, whatever the range.
    @Test(arguments: Engine.available) func daysOutsideTheSupportedYearsAre400(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: Self.zone)
            for (from, to, named) in [
                ("0001-01-01", "9999-12-31", "from"), ("1899-12-31", "1900-01-02", "from"),
                ("9998-12-30", "9999-01-01", "to"),
            ] {
                let reply = try await api.metricTotals(ada, from: from, to: to)
                #expect(reply.status == .badRequest, "\(from) \(to): \(reply.status) \(reply.body)")
                #expect(
                    reply.errorMessage.contains("\"\(named)\"")
                        && reply.errorMessage.contains("outside the supported days, 1900-01-01 to 9998-12-31"),
                    "\(from) \(to): \(reply.body)")
            }
            let edges = try await api.metricTotals(ada, from: "1900-01-01", to: "1900-01-02")
            #expect(edges.status == .ok, "\(edges.body)")
            let last = try await api.metricTotals(ada, from: "9998-12-30", to: "9998-12-31")
            #expect(last.status == .ok, "\(last.body)")
        }
    }
}
