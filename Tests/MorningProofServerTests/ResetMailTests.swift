import Foundation
import MorningProofCore
import MorningProofTestSupport
import Testing

@testable import MorningProofServer

/// "Forgot password?" by email (issue 41): the server's own SMTP client mails a reset link to a
/// real SMTP server on loopback (Debian's python3-aiosmtpd, `Tests/Fixtures/smtp_sink.py`).
@Suite("Password-reset links by email")
struct ResetMailTests {
    /// An SMTP server on loopback writing each mail to a folder, for the length of `body`; nil
    /// (the test says why) without python3-aiosmtpd.
    static func withSink<T>(_ body: (_ port: Int, _ folder: URL) async throws -> T) async throws -> T? {
        let python = URL(fileURLWithPath: "/usr/bin/python3")
        guard try BuiltBinary.run(executable: python, ["-c", "import aiosmtpd"]).status == 0 else {
            print("skipped: no python3-aiosmtpd (scripts/bootstrap installs it)")
            return nil
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-mail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/smtp_sink.py")
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path, folder.path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        let port = try #require(Int(String(decoding: line, as: UTF8.self)), "the sink printed no port")
        return try await body(port, folder)
    }

    /// The mails in `folder`, waiting (up to two minutes, a busy machine's bound) until there are `count`.
    static func mails(in folder: URL, count: Int) async throws -> [String] {
        for _ in 0..<1200 {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".eml") }
            if names.count >= count {
                return try names.sorted().map {
                    try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("fewer than \(count) mails arrived in two minutes")
    }

    @Test(arguments: Engine.available) func aForgottenPasswordIsResetByTheMailedLinkAndUnknownEmailsLookTheSame(
        engine: Engine
    ) async throws {
        _ = try await Self.withSink { port, folder in
            try await TestServer.with(engine) { server in
                var server = server
                server.configuration.publicURL = "https://habits.example"
                server.configuration.resetMail = try SMTPMailer(
                    server: SMTPServer(url: "smtp://127.0.0.1:\(port)"), from: "morningproof@habits.example")
                try await server.run(.live) { api in
                    let ada = try await api.signUp("ada@example.com", timezone: "UTC")
                    let options = try await api.send(.get, "/api/auth/options")
                    #expect(options.json["passwordResetByEmail"] as? Bool == true)
                    let known = try await api.send(.post, "/api/auth/forgot", json: #"{"email": "ada@example.com"}"#)
                    let unknown = try await api.send(
                        .post, "/api/auth/forgot", json: #"{"email": "nobody@example.com"}"#)
                    #expect(known.status == .accepted && unknown.status == .accepted)
                    #expect(known.body == unknown.body)

                    let mail = try #require(try await Self.mails(in: folder, count: 1).first)
                    #expect(mail.contains("To: <ada@example.com>"))
                    let link = try #require(mail.split(whereSeparator: \.isNewline).first { $0.contains("#reset=") })
                    #expect(link.hasPrefix("https://habits.example/#reset="))
                    let code = String(link.split(separator: "=").last ?? "")
                    let reset = try await api.send(
                        .post, "/api/auth/reset", json: #"{"code": "\#(code)", "new": "battery staple"}"#)
                    #expect(reset.status == .noContent, "\(reset.body)")
                    #expect(try await api.send(.get, "/api/auth/me", token: ada).status == .unauthorized)

                    // Past 3 a mailbox gets nothing more, and the answer is the same.
                    for _ in 0..<3 {
                        let again = try await api.send(
                            .post, "/api/auth/forgot", json: #"{"email": "ada@example.com"}"#)
                        #expect(again.status == .accepted && again.body == known.body)
                    }
                    #expect(try await Self.mails(in: folder, count: 3).count == 3)
                    try await Task.sleep(for: .seconds(1))
                    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 3)
                }
            }
        }
    }

    @Test func withoutMailTheSignInPageSaysToAskTheOperator() async throws {
        try await TestServer.run(on: .sqlite) { api in
            let options = try await api.send(.get, "/api/auth/options")
            #expect(options.json["passwordResetByEmail"] as? Bool == false)
            let forgot = try await api.send(.post, "/api/auth/forgot", json: #"{"email": "ada@example.com"}"#)
            #expect(forgot.status == .notFound && forgot.errorCode == "mail_not_configured")
        }
    }

    @Test func linesStartingWithADotAreDoubledAndSMTPURLsAreRead() throws {
        let message = SMTPMailer.message(from: "a@b.example", to: "c@d.example", subject: "s", text: "one\n.two\n..")
        #expect(message.hasSuffix("\r\n\r\none\r\n..two\r\n..."))
        let server = try SMTPServer(url: "smtps://me%40x:p%3Ass@mail.example")
        #expect(server.host == "mail.example" && server.port == 465 && server.implicitTLS)
        #expect(server.user == "me@x" && server.password == "p:ss")
        #expect(try SMTPServer(url: "smtp://127.0.0.1:2525").port == 2525)
        #expect(throws: MorningProofError.self) { try SMTPServer(url: "http://mail.example") }
    }
}
