import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MorningProofTestSupport
import TestFixtures
import Testing

/// Bodies of `POST /api/metrics` made to hurt (issue 26, attacked from outside): each is refused
/// with a clear 400 or 415, quickly, and stores nothing; none is a 500.
@Suite("Health data over HTTP: hostile bodies")
struct MetricHostileBodyTests {
    /// Posts each (type, body) as the owner and expects `status`, a message containing `saying`,
    /// no upload path in it, and no steps stored on the fixtures' days.
    static func refused(
        _ engine: Engine, _ bodies: [(type: String, body: Data)], status: HTTPResponse.Status, saying: String
    ) async throws {
        try await MetricRouteTests.withOwner(engine) { api, owner in
            for (type, body) in bodies {
                let reply = try await api.upload(
                    "/api/metrics", token: owner, at: MetricRouteTests.now, type: type, body: body)
                let shown = String(decoding: body.prefix(80), as: UTF8.self)
                #expect(reply.status == status, "\(type) \(shown): \(reply.status) \(reply.body)")
                #expect(reply.errorMessage.contains(saying), "\(type) \(shown): \(reply.body)")
                #expect(!reply.errorMessage.contains("morningproof-upload"), "the answer names no path: \(reply.body)")
            }
            #expect(!(try await api.metricTotals(owner).body.contains("steps")))
        }
    }

    /// JSON that looks like Health Auto Export at first and breaks later was a 500 (the reader's
    /// error reached the server unconverted); a zip with no export in it too.
    @Test(arguments: Engine.available) func aBodyThatBreaksAfterItsFirstLineIs400(engine: Engine) async throws {
        let step =
            #"{"name": "step_count", "units": "count", "data": [{"qty": 900, "date": "2026-03-08 10:00:00 -0500"}]}"#
        let nested =
            #"{"data": {"metrics": "# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            + "}}"
        let bodies: [(type: String, body: Data)] = [
            ("application/json", Data(nested.utf8)),
            (
                "application/json",
                Data(#"{"data": {"metrics": [\#(step.replacingOccurrences(of: "900", with: "NaN"))]}}"#.utf8)
            ),
            ("application/json", Data(#"{"data": {"metrics": [\#(step)]"#.utf8)),
            (
                "application/zip",
                try Data(contentsOf: HealthFixtures.folder.appendingPathComponent("hostile/no-export.zip"))
            ),
        ]
        try await Self.refused(engine, bodies, status: .badRequest, saying: "the body")
    }

    /// A charset other than UTF-8 was taken and the body read as UTF-8 anyway.
    @Test(arguments: Engine.available) func aCharsetOtherThanUTF8Is415(engine: Engine) async throws {
        let json = try Data(contentsOf: HealthFixtures.folder.appendingPathComponent("health-auto-export.json"))
        let utf16 = Data(String(decoding: json, as: UTF8.self).utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        try await Self.refused(
            engine,
            [
                ("application/json; charset=utf-16", json), ("application/json; charset=UTF-16LE", utf16),
                ("text/csv; charset=\"latin1\"", Data("date,metric,value\n2026-03-08,steps,900\n".utf8)),
            ], status: .unsupportedMediaType, saying: "UTF-8")
        try await MetricRouteTests.withOwner(engine) { api, owner in
            for type in ["application/json; charset=utf-8", "application/json; charset=\"UTF-8\""] {
                let reply = try await api.upload(
                    "/api/metrics", token: owner, at: MetricRouteTests.now, type: type, body: json)
                #expect(reply.status == .ok, "\(type): \(reply.body)")
            }
        }
    }

    /// A 260 KB export.zip whose export.xml is 64 MB of one step record: read whole, it kept a core
    /// and an upload's place (a few megabytes of such a zip hold gigabytes); now refused once it
    /// expands past 100 times its compressed size, before anything is stored.
    @Test(arguments: Engine.available) func aZipBombIsRefusedBeforeItIsReadWhole(engine: Engine) async throws {
        let bomb = try Data(contentsOf: HealthFixtures.folder.appendingPathComponent("hostile/zip-bomb.zip"))
        try await Self.refused(engine, [("application/zip", bomb)], status: .badRequest, saying: "zip bomb")
    }

    /// A CSV header of a million columns was cut at 1 MB and split (seconds of CPU per body), and
    /// the body read when the three columns came first; a header is a few dozen bytes.
    @Test(arguments: Engine.available) func aCSVHeaderOfAMillionColumnsIs400(engine: Engine) async throws {
        let csv = "date,metric,value" + String(repeating: ",x", count: 1_000_000) + "\n2026-03-08,steps,900\n"
        try await Self.refused(
            engine, [("text/csv", Data(csv.utf8))], status: .badRequest, saying: "not a metrics file")
    }

    /// A form of two files stored the first and dropped the second unread.
    @Test(arguments: Engine.available) func aFormOfTwoFilesIs400(engine: Engine) async throws {
        func file(_ name: String, _ steps: Int) -> String {
            "--B\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(name).csv\"\r\n\r\n"
                + "date,metric,value\n2026-03-08,steps,\(steps)\n\r\n"
        }
        let form = file("a", 900) + file("b", 1200) + "--B--\r\n"
        try await Self.refused(
            engine, [("multipart/form-data; boundary=B", Data(form.utf8))], status: .badRequest,
            saying: "more than one file")
    }

    /// An empty body was called "not a metrics file" (issue 38): it is called empty.
    @Test(arguments: Engine.available) func anEmptyBodyIsCalledEmpty(engine: Engine) async throws {
        try await Self.refused(
            engine, [("text/csv", Data()), ("application/json", Data()), ("application/x-ndjson", Data())],
            status: .badRequest, saying: "the body is empty: send a metrics file")
    }
}
