import Foundation
import MorningProofTestSupport
import Testing

/// `serve --push-contact`: checked before anything starts, kept in the database with the VAPID key
/// made at the first start, so a second start (any process on the database) has the same key.
@Suite("morningproof-server: the Web Push identity and its contact", .serialized)
struct PushIdentityBinaryTests {
    let database = FileManager.default.temporaryDirectory
        .appendingPathComponent("morningproof-server-push-\(UUID().uuidString)/data.sqlite").path

    @Test func aLocalhostOrMalformedContactIsAUsageError() throws {
        for (contact, words) in [
            ("mailto:me@localhost", "Apple's push service refuses localhost contacts"),
            ("https://localhost/ops", "Apple's push service refuses localhost contacts"),
            ("me@example.com", "give mailto:ADDRESS or an https URL"),
            ("mailto:", "give mailto: and an address"),
        ] {
            let refused = try BuiltBinary.run(
                "morningproof-server", ["serve", "--port", "0", "--db", database, "--push-contact", contact])
            #expect(refused.status == 64, "\(contact)")
            #expect(refused.stderr.contains(words), "\(contact): \(refused.stderr)")
        }
    }

    @Test func theKeyMadeAtTheFirstStartIsKeptAndAContactSilencesTheWarning() throws {
        let created = try BuiltBinary.run(
            "morningproof-server", ["token", "create", "--name", "test", "--db", database])
        let token = String(created.stdout.split(separator: "\n").last ?? "")
        func key(_ extra: [String]) throws -> (key: String, log: String) {
            let server = try ServerProcess(["--db", database, "--port", "0"] + extra, keepLog: true)
            let reply = try curl(["-H", "Authorization: Bearer \(token)", "\(server.address)/api/push/key"])
            #expect(server.stop() == 0)
            return (reply, server.logText())
        }
        let first = try key([])
        #expect(first.key.hasPrefix(#"{"publicKey":""#) && first.key.count == 14 + 87 + 2, "\(first.key)")
        #expect(first.log.contains("Apple's push service needs a real one"))
        let second = try key(["--push-contact", "mailto:ops@example.com"])
        #expect(second.key == first.key)
        #expect(!second.log.contains("needs a real one"))
        // The contact stays in the database: a later start without the option does not warn.
        let third = try key([])
        #expect(third.key == first.key && !third.log.contains("needs a real one"))
    }
}

/// `curl -s ARGUMENTS`'s standard output: a request as a script sends it to a live server.
func curl(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-s"] + arguments
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
