import Foundation
import MorningProofCore
import MorningProofService
import NIOCore
import NIOPosix
import NIOSSL

/// Where mail goes: `smtp://[USER:PASS@]HOST[:PORT]` (STARTTLS when the server offers it; port
/// 587 by default) or `smtps://...` (TLS from the start; port 465), as `serve --smtp-url` names it.
public struct SMTPServer: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var implicitTLS: Bool
    public var user: String?
    public var password: String?

    /// Reads an smtp:// or smtps:// URL; a usage error names what is wrong.
    public init(url text: String) throws {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            ["smtp", "smtps"].contains(scheme), let host = url.host, !host.isEmpty, ["", "/"].contains(url.path),
            url.query == nil, url.fragment == nil
        else {
            throw MorningProofError.usage(
                "--smtp-url needs smtp://USER:PASSWORD@HOST:PORT or smtps://..., not \"\(text)\"")
        }
        self.host = host
        implicitTLS = scheme == "smtps"
        port = url.port ?? (implicitTLS ? 465 : 587)
        user = url.percentEncodedUser?.removingPercentEncoding
        password = url.percentEncodedPassword?.removingPercentEncoding
    }
}

/// A small SMTP client on SwiftNIO (RFC 5321): EHLO, STARTTLS when offered on smtp://, AUTH PLAIN
/// when a user is given, MAIL FROM, RCPT TO, DATA with dot-stuffing, QUIT. Every send is bounded:
/// the connection by `connectTimeout`, the whole exchange by `deadline` (the channel is closed then).
public struct SMTPMailer: ResetMailSender {
    public let server: SMTPServer
    public let from: String
    public var connectTimeout: TimeAmount = .seconds(10)
    public var deadline: TimeAmount = .seconds(30)

    public init(server: SMTPServer, from: String) throws {
        if let problem = AccountRules.emailProblem(from) {
            throw MorningProofError.usage("--mail-from: \(problem)")
        }
        self.server = server
        self.from = from
    }

    public func sendResetLink(to email: String, link: String) async throws {
        let text = """
            Someone asked to reset the password of your MorningProof account (\(email)).

            To choose a new password, open this link within an hour:

            \(link)

            The link works once. If you did not ask, ignore this mail: your password stays as it is.
            """
        try await send(to: email, subject: "Reset your MorningProof password", text: text)
    }

    /// Sends one plain-text mail to `recipient`.
    public func send(to recipient: String, subject: String, text: String) async throws {
        guard AccountRules.emailProblem(recipient) == nil else {
            throw MorningProofError.usage("not an email address: \(recipient)")
        }
        let tls = try NIOSSLContext(configuration: .makeClientConfiguration())
        let server = self.server
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(connectTimeout)
            .connect(host: server.host, port: server.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if server.implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: server.host))
                    }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let raw = channel.channel
        let expiry = raw.eventLoop.scheduleTask(in: deadline) { raw.close(promise: nil) }
        defer { expiry.cancel() }
        let message = Self.message(from: from, to: recipient, subject: subject, text: text)
        do {
            try await channel.executeThenClose { inbound, outbound in
                var replies = SMTPReplies(inbound.makeAsyncIterator())
                func command(_ line: String, expect codes: Set<Int>) async throws -> [String] {
                    try await outbound.write(ByteBuffer(string: line + "\r\n"))
                    return try await replies.expect(codes, after: line)
                }
                _ = try await replies.expect([220], after: "connecting")
                var features = try await command("EHLO morningproof", expect: [250])
                if !server.implicitTLS, features.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) {
                    _ = try await command("STARTTLS", expect: [220])
                    try await raw.pipeline.addHandler(
                        NIOSSLClientHandler(context: tls, serverHostname: server.host), position: .first)
                    features = try await command("EHLO morningproof", expect: [250])
                }
                if let user = server.user {
                    let plain = Data("\0\(user)\0\(server.password ?? "")".utf8).base64EncodedString()
                    _ = try await command("AUTH PLAIN \(plain)", expect: [235])
                }
                _ = try await command("MAIL FROM:<\(from)>", expect: [250])
                _ = try await command("RCPT TO:<\(recipient)>", expect: [250, 251])
                _ = try await command("DATA", expect: [354])
                _ = try await command(message + "\r\n.", expect: [250])
                _ = try? await command("QUIT", expect: [221])
            }
        } catch let error as MorningProofError {
            throw error
        } catch {
            throw MorningProofError.ioError("cannot send mail through \(server.host):\(server.port): \(error)")
        }
    }

    /// The message as DATA sends it: headers, a blank line, the text with CRLF line ends and every
    /// line that starts with a dot doubled (dot-stuffing, RFC 5321 4.5.2).
    static func message(from: String, to: String, subject: String, text: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let headers = [
            "From: MorningProof <\(from)>", "To: <\(to)>", "Subject: \(subject)",
            "Date: \(formatter.string(from: Date()))",
            "Message-ID: <\(UUID().uuidString)@morningproof>", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit",
        ]
        let body = text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        return (headers + [""] + body).joined(separator: "\r\n")
    }
}

/// The server's replies, read line by line: a reply is lines `CODE-text` ended by `CODE text`.
struct SMTPReplies {
    var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    var pending = ByteBuffer()
    /// The longest reply line taken (RFC 5321 allows 512 bytes; more is an error, not memory).
    static let lineLimit = 4096

    init(_ iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) {
        self.iterator = iterator
    }

    /// The lines of the next reply, whose code must be one of `codes`.
    mutating func expect(_ codes: Set<Int>, after what: String) async throws -> [String] {
        var lines: [String] = []
        while true {
            let line = try await nextLine()
            guard line.count >= 3, let code = Int(line.prefix(3)) else {
                throw MorningProofError.ioError(
                    "the mail server answered \(what.prefix(20)) with \"\(line.prefix(80))\"")
            }
            lines.append(String(line.dropFirst(4)))
            if line.count == 3 || line[line.index(line.startIndex, offsetBy: 3)] == " " {
                guard codes.contains(code) else {
                    let shown = what.hasPrefix("AUTH") ? "AUTH" : String(what.prefix(40))
                    throw MorningProofError.ioError("the mail server refused \(shown): \(line.prefix(200))")
                }
                return lines
            }
        }
    }

    private mutating func nextLine() async throws -> String {
        while true {
            if let end = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                let length = end - pending.readerIndex
                let line = pending.readString(length: length) ?? ""
                pending.moveReaderIndex(forwardBy: 1)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            guard pending.readableBytes < Self.lineLimit else {
                throw MorningProofError.ioError("the mail server sent a line longer than \(Self.lineLimit) bytes")
            }
            guard var more = try await iterator.next() else {
                throw MorningProofError.ioError("the mail server closed the connection (or did not answer in time)")
            }
            pending.writeBuffer(&more)
        }
    }
}
