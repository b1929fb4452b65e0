import Foundation
import MorningProofTestSupport
import Testing

/// A CSV or JSON Lines upload in bounded memory (issue 38): stored all or nothing, the upload's
/// samples were all held in memory until its one write (a 49 MB CSV of steps peaked at about 270 MB).
/// They are now kept on disk a batch at a time and stored from there in one transaction: the
/// server's peak stays under 150 MB, and grows little with the file.
@Suite("Health data over HTTP: a large CSV upload in bounded memory", .serialized)
struct MetricUploadMemoryTests {
    @Test(arguments: Engine.available)
    func aCSVUploadOf40MBPeaksUnder150MB(engine: Engine) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-upload-memory-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = folder.appendingPathComponent("steps.csv")
        let rows = 1_400_000
        let csv = MetricUploadKillTests.csv(rows: rows)
        #expect(csv.count > 40_000_000)
        try csv.write(to: body)
        switch engine {
        case .sqlite:
            try Self.upload(body, rows: rows, database: ["--db", folder.appendingPathComponent("data.sqlite").path])
        case .postgres:
            try await TestPostgres.withDatabase { url in
                try Self.upload(
                    body, rows: rows,
                    database: ["--database-url", "postgres://\(url.user)@\(url.host):\(url.port)/\(url.database)"])
            }
        }
    }

    /// Posts `body` (a CSV of `rows` samples) as a new account's to a new server on `database`, and
    /// checks that it was stored whole with the server's peak resident memory under 150 MB.
    static func upload(_ body: URL, rows: Int, database: [String]) throws {
        let server = try ServerProcess(
            ["serve", "--port", "0", "--allow-clock-header", "--bcrypt-cost", "4"] + database)
        defer { _ = server.stop() }
        let signup = try curl([
            "-H", "Content-Type: application/json", "-d",
            #"{"email": "memory@example.com", "password": "a long password", "timezone": "UTC"}"#,
            "\(server.address)/api/auth/signup",
        ])
        let token = try #require(
            (try? JSONSerialization.jsonObject(with: Data(signup.utf8)) as? [String: Any])?["token"] as? String,
            "\(signup)")
        let answer = try curl([
            "-H", "Expect:", "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: text/csv",
            "--data-binary", "@\(body.path)", "\(server.address)/api/metrics",
        ])
        let report = try #require(
            try? JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any], "\(answer.prefix(300))")
        #expect(report["records"] as? Int == rows, "\(answer.prefix(300))")
        let status = try String(
            contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
        let peak = try #require(
            status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
                .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) },
            "no VmHWM in the server's status")
        #expect(peak < 150 << 10, "peak memory \(peak >> 10) MB for a \(rows)-row CSV upload")
    }
}
