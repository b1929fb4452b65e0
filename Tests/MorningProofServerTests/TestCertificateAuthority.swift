import Foundation
import MorningProofTestSupport

/// A certificate authority made for one test with `openssl` in a temporary folder, and the server
/// certificates it signs for 127.0.0.1 and localhost: what a person would make with their own CA.
struct TestCertificateAuthority {
    enum KeyType: String {
        case rsa, ecdsa

        var newKey: [String] {
            switch self {
            case .rsa: ["-newkey", "rsa:2048"]
            case .ecdsa: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
            }
        }
    }

    /// A server certificate's files: the chain (the certificate, then the CA's) and its key.
    struct Leaf {
        let certificate: String
        let key: String
    }

    let folder: URL
    /// The CA's certificate, for `curl --cacert`.
    let certificate: String
    private let key: String

    init(keyType: KeyType = .ecdsa) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        certificate = folder.appendingPathComponent("ca.pem").path
        key = folder.appendingPathComponent("ca.key").path
        try Self.openssl(
            ["req", "-x509"] + keyType.newKey + [
                "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=MorningProof Test CA",
            ])
    }

    /// A new server certificate for 127.0.0.1 and localhost with `serial`, valid for `days` from
    /// now (-1: it expired yesterday), signed by this CA.
    func leaf(_ name: String, serial: Int, keyType: KeyType, days: Int = 2) throws -> Leaf {
        let path = { (suffix: String) in folder.appendingPathComponent("\(name).\(suffix)").path }
        try Self.openssl(
            ["req"] + keyType.newKey + [
                "-nodes", "-keyout", path("key"), "-out", path("csr"), "-subj", "/CN=localhost",
            ])
        try "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n"
            .write(toFile: path("ext"), atomically: true, encoding: .utf8)
        try Self.openssl([
            "x509", "-req", "-in", path("csr"), "-CA", certificate, "-CAkey", key, "-set_serial", "\(serial)",
            "-days", "\(days)", "-extfile", path("ext"), "-out", path("leaf.pem"),
        ])
        let chain =
            try String(contentsOfFile: path("leaf.pem"), encoding: .utf8)
            + String(contentsOfFile: certificate, encoding: .utf8)
        try chain.write(toFile: path("pem"), atomically: true, encoding: .utf8)
        return Leaf(certificate: path("pem"), key: path("key"))
    }

    /// Puts `leaf`'s files where `target`'s are, as a renewal does.
    static func replace(_ target: Leaf, with leaf: Leaf) throws {
        for (from, to) in [(leaf.certificate, target.certificate), (leaf.key, target.key)] {
            try Data(contentsOf: URL(fileURLWithPath: from)).write(to: URL(fileURLWithPath: to), options: .atomic)
        }
    }

    /// The serial number (hex, as `openssl x509 -serial` prints it) of the certificate a new TLS
    /// connection to `port` is served.
    static func servedSerial(port: Int) throws -> String {
        let shown = try BuiltBinary.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            [
                "-c",
                "openssl s_client -connect 127.0.0.1:\(port) -servername localhost </dev/null 2>/dev/null"
                    + " | openssl x509 -noout -serial",
            ])
        return shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }

    private static func openssl(_ arguments: [String]) throws {
        let made = try BuiltBinary.run(executable: URL(fileURLWithPath: "/usr/bin/openssl"), arguments)
        guard made.status == 0 else { throw TestFailure("openssl \(arguments.joined(separator: " ")): \(made.stderr)") }
    }
}

/// One TLS connection kept open (`openssl s_client`), on which requests are sent one after another.
final class KeptAliveTLSConnection {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init(port: Int, authority: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = [
            "s_client", "-quiet", "-connect", "127.0.0.1:\(port)", "-servername", "localhost", "-CAfile", authority,
        ]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// GETs `path` and returns the answer once its JSON body has ended ("" when the connection closed first).
    func get(_ path: String) -> String {
        input.fileHandleForWriting.write(Data("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        var answer = Data()
        while !(String(decoding: answer, as: UTF8.self).hasSuffix("}")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return "" }
            answer.append(chunk)
        }
        return String(decoding: answer, as: UTF8.self)
    }

    /// Ends the client: `-quiet` ignores the end of its input, and SIGTERM may come to it ignored
    /// (inherited from the test runner): either way it would wait for the server's idle timeout.
    func close() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
