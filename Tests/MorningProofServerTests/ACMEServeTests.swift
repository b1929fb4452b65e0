import Foundation
import MorningProofTestSupport
import Testing

/// `serve --acme-domain`'s start, where no CA answers: the flags checked, and a directory that
/// cannot be reached stopping the start with its exit code.
@Suite("serve --acme-domain: flags and an unreachable CA", .serialized)
struct ACMEServeTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mp-acme-serve-\(UUID().uuidString)")
    var database: String { folder.appendingPathComponent("data.sqlite").path }

    private func serve(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try BuiltBinary.run("morningproof-server", ["serve", "--db", database, "--port", "0"] + arguments)
    }

    @Test func badFlagsAreUsageErrorsAndChangeNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let authority = try TestCertificateAuthority()
        defer { authority.remove() }
        let leaf = try authority.leaf("server", serial: 1, keyType: .ecdsa)
        let missing = folder.appendingPathComponent("nowhere.pem").path
        for (arguments, status, message) in [
            (
                ["--acme-domain", "morningproof.test", "--tls-cert", leaf.certificate, "--tls-key", leaf.key],
                Int32(64),
                "give --acme-domain or --tls-cert and --tls-key, not both"
            ),
            (["--acme-domain", "127.0.0.1"], 64, "--acme-domain must be a DNS name"),
            (["--acme-domain", "../etc"], 64, "--acme-domain must be a DNS name"),
            (["--acme-domain", "a.test", "--acme-directory", "http://ca.test/dir"], 64, "must be an https:// URL"),
            (["--acme-email", "me@example.org"], 64, "--acme-email needs --acme-domain"),
            (["--acme-domain", "a.test", "--acme-email", "a@b.test,c@d.test"], 64, "must be one email address"),
            (
                ["--acme-domain", "a.test", "--acme-ca-certificate", missing], 66,
                "--acme-ca-certificate \(missing): no such file"
            ),
            (["--acme-domain", "a.test", "--acme-ca-certificate", leaf.key], 64, "no PEM certificate in it"),
        ] {
            let result = try serve(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains("listening"), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("acme/account-key.pem").path))
    }

    @Test func aDirectoryThatCannotBeReachedStopsTheFirstStartWith74() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let closed = try freeLoopbackPort()
        let directory = "https://127.0.0.1:\(closed)/dir"
        let result = try serve([
            "--acme-domain", "morningproof.test", "--acme-directory", directory,
            "--acme-http-port", "\(try freeLoopbackPort())",
        ])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(
            result.stderr.contains("morningproof-server: cannot reach the ACME directory at \(directory)"),
            "\(result.stderr)")
    }
}
