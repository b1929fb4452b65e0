import Foundation
import MorningProofTestSupport
import Testing

/// The passkey relying party of the built server (issue 41's passkeys as deployed; guard44): without
/// `--public-url` it follows each request's Host, and the server says so once at start with the fix;
/// with it, a passkey ceremony from another address is refused with a sentence naming the right one.
@Suite("morningproof-server: passkeys and the addresses they are for", .serialized)
struct PasskeyHostBinaryTests {
    let database = FileManager.default.temporaryDirectory
        .appendingPathComponent("morningproof-passkey-host-\(UUID().uuidString)/data.sqlite").path

    /// One request on a connection of its own, with `lines` as extra header lines: the status and the body.
    static func send(
        _ port: Int, _ method: String, _ path: String, host: String?, _ lines: [String] = [], json: String = ""
    )
        throws -> (status: Int, body: [String: Any])
    {
        let connection = try RawConnection(port: port)
        var head = ["\(method) \(path) HTTP/1.1", "Connection: close", "Content-Type: application/json"]
        if let host { head.append("Host: \(host)") }
        head += lines + ["Content-Length: \(json.utf8.count)"]
        connection.send(head.joined(separator: "\r\n") + "\r\n\r\n" + json)
        let response = try connection.response(within: 60)
        let status = response.head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        let body = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return (status, body)
    }

    static let notice = "passkeys follow each request's Host header (no --public-url)"

    @Test func withoutPublicURLTheRelyingPartyIsEachHostAndTheServerSaysSoOnce() async throws {
        let server = try ServerProcess(
            ["serve", "--db", database, "--port", "0", "--bcrypt-cost", "4"], keepLog: true)
        let port = RawConnection.port(of: server.address)
        try await OwnThread.run {
            for host in ["habits.example", "Other.Example:8080"] {
                let options = try Self.send(port, "POST", "/api/auth/passkeys/authentication", host: host)
                #expect(
                    options.status == 200
                        && options.body["rpId"] as? String
                            == host.lowercased().split(separator: ":").first.map(String.init)
                )
            }
        }
        #expect(server.stop() == 0)
        let log = server.logText()
        #expect(log.components(separatedBy: Self.notice).count == 2, "\(log.prefix(3000))")
        #expect(log.contains("serve --public-url https://HOST"))
    }

    @Test func withPublicURLACeremonyFromAnotherAddressIsRefused() async throws {
        let server = try ServerProcess(
            ["serve", "--db", database, "--port", "0", "--bcrypt-cost", "4", "--public-url", "https://habits.example"],
            keepLog: true)
        let port = RawConnection.port(of: server.address)
        try await OwnThread.run {
            let path = "/api/auth/passkeys/authentication"
            for (host, lines) in [
                ("habits.example", []), ("habits.example:443", []),
                // A proxy that sends the upstream's address as Host: the page's Origin names the address.
                ("127.0.0.1:\(port)", ["Origin: https://habits.example"]),
            ] as [(String, [String])] {
                let options = try Self.send(port, "POST", path, host: host, lines)
                #expect(options.status == 200, "\(host) \(lines): \(options.body)")
                #expect(options.body["rpId"] as? String == "habits.example")
            }
            for (host, lines, named) in [
                ("127.0.0.1:\(port)", [], "https://127.0.0.1:\(port)"), ("evil.example", [], "https://evil.example"),
                ("habits.example", ["Origin: http://192.168.1.5:8080"], "http://192.168.1.5:8080"),
            ] as [(String, [String], String)] {
                let refused = try Self.send(port, "POST", path, host: host, lines)
                #expect(refused.status == 400 && refused.body["code"] as? String == "wrong_host", "\(refused.body)")
                #expect(
                    refused.body["error"] as? String
                        == "passkeys on this server are for https://habits.example (its --public-url), and this "
                        + "request came from \"\(named)\": open MorningProof at https://habits.example to use them")
            }
            // Every ceremony: a registration's options and both finishes, before their bodies are read.
            let signUp = try Self.send(
                port, "POST", "/api/auth/signup", host: "habits.example",
                json: #"{"email": "ada@example.com", "password": "correct horse battery", "timezone": "UTC"}"#)
            let token = try #require(signUp.body["token"] as? String, "\(signUp.body)")
            let bearer = ["Authorization: Bearer \(token)"]
            let here = try Self.send(port, "POST", "/api/auth/passkeys/registration", host: "habits.example", bearer)
            #expect(here.status == 200 && (here.body["rp"] as? [String: Any])?["id"] as? String == "habits.example")
            for ceremony in ["registration", "registration/finish", "authentication/finish"] {
                let refused = try Self.send(
                    port, "POST", "/api/auth/passkeys/\(ceremony)", host: "evil.example", bearer, json: "{}")
                #expect(
                    refused.status == 400 && refused.body["code"] as? String == "wrong_host",
                    "\(ceremony): \(refused.body)")
            }
            // The list is no ceremony: it answers whatever the address.
            let list = try Self.send(port, "GET", "/api/auth/passkeys", host: "evil.example", bearer)
            #expect(list.status == 200)
        }
        #expect(server.stop() == 0)
        let log = server.logText()
        #expect(!log.contains(Self.notice))
        #expect(log.contains("passkeys are for https://habits.example (--public-url)"), "\(log.prefix(3000))")
    }
}
