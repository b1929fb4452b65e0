import Foundation
import MorningProofCore
import MorningProofTestSupport
import NIOCore
import Testing

@testable import MorningProofServer

/// Photo proofs of the built server (issue 38): one account sending many at once holds only its
/// own share of the photo places and of the threads that decode them, so another account's proof
/// is answered beside them. The bound is the order of events (answered while the first account's
/// uploads are still held), not a speed.
@Suite("morningproof-server: one account's photos leave places for the others", .serialized)
struct ProofAdmissionTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "morningproof-proof-admission-\(UUID().uuidString)")

    /// Creates a photo habit for `token`; its proof route.
    static func photoHabit(_ port: Int, token: String) throws -> String {
        let created = try AdmissionTests.send(
            port, "POST", "/api/habits", token: token, body: #"{"name": "Make bed", "kind": "photo"}"#)
        let json = try JSONSerialization.jsonObject(with: Data(created.body.utf8)) as? [String: Any]
        let id = try #require(json?["id"] as? Int, "habit: \(created.status) \(created.body)")
        return "/api/habits/\(id)/proof"
    }

    /// A whole proof of `photo` on a connection of its own: the status and how long it took.
    static func prove(_ port: Int, _ path: String, token: String, photo: Data) throws -> (status: Int, seconds: Double)
    {
        let started = Date()
        let connection = try RawConnection(port: port)
        connection.send(
            "POST \(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: image/png\r\nContent-Length: \(photo.count)\r\nConnection: close\r\n\r\n")
        connection.send(Array(photo))
        let (head, _) = try connection.response(within: 120)
        return (Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0, Date().timeIntervalSince(started))
    }

    /// Ada starts eight proofs whose bodies have not arrived (as eight large photos on a slow
    /// phone): her share is admitted and the rest refused at once with 429 and `Retry-After`; Bob's
    /// proof is then answered while hers are still held. Before, her eight took every place and
    /// Bob's proof was 503 until one of hers ended.
    @Test func oneAccountsEightProofsLeaveAnotherAccountsProofAnswered() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let uploads = folder.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: true)
        let server = try ServerProcess(
            [
                "--db", folder.appendingPathComponent("data.sqlite").path, "--port", "0", "--photo-uploads", "8",
                "--min-body-rate", "0", "--body-timeout", "300",
            ], environment: ["TMPDIR": uploads.path])
        let port = RawConnection.port(of: server.address)
        let share = max(1, System.coreCount / 2)
        try await OwnThread.run {
            let ada = try AdmissionTests.signUp(port, "ada@example.com", from: "127.0.0.2")
            let bob = try AdmissionTests.signUp(port, "bob@example.com", from: "127.0.0.3")
            let (adasProof, bobsProof) = (try Self.photoHabit(port, token: ada), try Self.photoHabit(port, token: bob))
            let photo = FlatPNG.make(width: 64, height: 64)
            let alone = try Self.prove(port, bobsProof, token: bob, photo: photo)

            let held = try (0..<8).map { _ in
                let connection = try RawConnection(port: port)
                connection.send(
                    "POST \(adasProof) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(ada)\r\n"
                        + "Content-Type: image/png\r\nContent-Length: 1000000\r\n\r\n")
                connection.send(Array(photo.prefix(8)))
                return connection
            }
            // Her refusals come at once; the admitted ones wait for bodies that do not come.
            var refused: [String] = []
            var answered = Set<Int>()
            let started = Date()
            while refused.count < 8 - share && Date().timeIntervalSince(started) < 20 {
                for (index, connection) in held.enumerated() where !answered.contains(index) {
                    guard let reply = try? connection.response(within: 0.05) else { continue }
                    answered.insert(index)
                    refused.append("\(reply.head.prefix(12)) \(AdmissionTests.retryAfter(reply.head) ?? -1)")
                }
            }
            #expect(refused == Array(repeating: "HTTP/1.1 429 2", count: 8 - share), "ada's eight: \(refused)")

            let beside = try Self.prove(port, bobsProof, token: bob, photo: photo)
            print(
                "Bob's proof alone: \(alone.status) in \(Int(alone.seconds * 1000)) ms; beside Ada's eight: \(beside.status) in \(Int(beside.seconds * 1000)) ms"
            )
            #expect([200, 201, 422].contains(alone.status))
            #expect([200, 201, 422].contains(beside.status), "bob's proof beside ada's eight: \(beside.status)")
            // Still held: none of Ada's admitted uploads ended before Bob was answered.
            #expect(held.indices.filter { !answered.contains($0) }.allSatisfy { !held[$0].isClosed(within: 0.01) })
        }
        #expect(server.stop() == 0)
    }
}
