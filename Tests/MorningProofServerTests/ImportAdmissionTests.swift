import Foundation
import Glibc
import MorningProofTestSupport
import Testing

/// Imports have places of their own (issue 38's rule that one account cannot slow the others): an
/// import held open by a slow body takes no place of the metric uploads, and a metric upload held
/// open takes none of the imports'. Before, imports took `--metrics-uploads` places, so a phone's
/// upload got 503 while imports ran.
@Suite("morningproof-server: imports and metric uploads never refuse each other", .serialized)
struct ImportAdmissionTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "morningproof-import-admission-\(UUID().uuidString)")

    /// A request whose body is announced and never sent whole: it holds its place until the
    /// connection is closed.
    static func held(_ port: Int, _ path: String, token: String, type: String, start: String) throws -> RawConnection {
        let connection = try RawConnection(port: port)
        connection.send(
            "POST \(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: \(type)\r\nContent-Length: 5000\r\n\r\n\(start)")
        return connection
    }

    @Test func anImportHeldOpenLeavesMetricUploadsTheirPlacesAndTheReverse() async throws {
        let uploads = folder.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // One metric place, so that an import taking it would leave none.
        let server = try ServerProcess(
            ["--db", folder.appendingPathComponent("data.sqlite").path, "--port", "0", "--metrics-uploads", "1"],
            environment: ["TMPDIR": uploads.path])
        let port = RawConnection.port(of: server.address)
        try await OwnThread.run {
            let ada = try AdmissionTests.signUp(port, "ada@example.com", from: "127.0.0.2")
            let bob = try AdmissionTests.signUp(port, "bob@example.com", from: "127.0.0.3")
            let cy = try AdmissionTests.signUp(port, "cy@example.com", from: "127.0.0.4")
            let dan = try AdmissionTests.signUp(port, "dan@example.com", from: "127.0.0.5")
            func filesHeld() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: uploads.path).count }

            // Ada's import, held open by a body that does not come.
            let importing = try Self.held(
                port, "/api/import", token: ada, type: "application/json", start: #"{"format": "#)
            for _ in 0..<300 where try filesHeld() == 0 { usleep(100_000) }
            #expect(try filesHeld() > 0, "ada's import is being received")
            let csv = "date,metric,value\n2026-03-07,steps,100\n"
            let metrics = try AdmissionTests.send(
                port, "POST", "/api/metrics", token: bob, type: "text/csv", body: csv, within: 30)
            #expect(metrics.status == 200, "bob's metrics beside ada's import: \(metrics.status) \(metrics.body)")

            // Cy's metric upload, held open, takes the one metric place: Dan's import is still read.
            let before = try filesHeld()
            let uploading = try Self.held(
                port, "/api/metrics", token: cy, type: "text/csv", start: "date,metric,value\n")
            for _ in 0..<300 where try filesHeld() == before { usleep(100_000) }
            #expect(try filesHeld() > before, "cy's metric upload is being received")
            let export = #"{"format": "morningproof-export", "version": 1, "habits": []}"#
            let imported = try AdmissionTests.send(
                port, "POST", "/api/import", token: dan, body: export, within: 30)
            #expect(imported.status == 200, "dan's import beside cy's metrics: \(imported.status) \(imported.body)")
            withExtendedLifetime((importing, uploading)) {}
        }
        #expect(server.stop() == 0)
    }
}
