import ACME
import Crypto
import Foundation
import MorningProofCore
import MorningProofTestSupport
import SwiftASN1
import Testing
import X509

/// The ACME client's parts on their own: the JWS on every request, the nonce it carries (and the
/// retry RFC 8555 asks for on `badNonce`), the CSR, and the errors a person sees.
@Suite("ACME client")
struct ACMEClientTests {
    @Test func aRequestIsSignedWithES256AndNamesTheKeyUntilTheAccountExists() throws {
        let key = ACMEAccountKey()
        let body = try key.signed(
            url: "https://ca.test/new-acct", nonce: "n1", accountURL: nil, payload: Data("{}".utf8))
        let jws = try JSONDecoder().decode([String: String].self, from: body)
        let protectedText = try #require(jws["protected"])
        let protected = try #require(Base64URL.decode(protectedText))
        let header = try #require(try JSONSerialization.jsonObject(with: protected) as? [String: Any])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["nonce"] as? String == "n1")
        #expect(header["url"] as? String == "https://ca.test/new-acct")
        #expect(header["kid"] == nil)
        let jwk = try #require(header["jwk"] as? [String: String])
        let raw = key.privateKey.publicKey.rawRepresentation
        #expect(Base64URL.decode(jwk["x"] ?? "") == raw.prefix(32))
        #expect(Base64URL.decode(jwk["y"] ?? "") == raw.suffix(32))
        #expect(jwk["kty"] == "EC" && jwk["crv"] == "P-256")
        #expect(Base64URL.decode(jws["payload"] ?? "") == Data("{}".utf8))

        let signatureBytes = try #require(Base64URL.decode(jws["signature"] ?? ""))
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        let input = Data("\(jws["protected"]!).\(jws["payload"]!)".utf8)
        #expect(key.privateKey.publicKey.isValidSignature(signature, for: input))
        #expect(!key.privateKey.publicKey.isValidSignature(signature, for: Data("\(jws["protected"]!).W10".utf8)))
    }

    @Test func withAnAccountTheRequestNamesItAndAPostAsGetHasAnEmptyPayload() throws {
        let key = ACMEAccountKey()
        let body = try key.signed(
            url: "https://ca.test/order/1", nonce: "n2", accountURL: "https://ca.test/acct/7", payload: nil)
        let jws = try JSONDecoder().decode([String: String].self, from: body)
        let protected = try #require(Base64URL.decode(jws["protected"] ?? ""))
        let header = try #require(try JSONSerialization.jsonObject(with: protected) as? [String: Any])
        #expect(header["kid"] as? String == "https://ca.test/acct/7")
        #expect(header["jwk"] == nil)
        #expect(jws["payload"] == "")
    }

    @Test func theKeyAuthorizationEndsWithTheRFC7638Thumbprint() throws {
        let key = ACMEAccountKey()
        let raw = key.privateKey.publicKey.rawRepresentation
        // The required members in lexicographic order, no white space (RFC 7638 §3.2).
        let canonical = try JSONSerialization.data(
            withJSONObject: [
                "crv": "P-256", "kty": "EC", "x": Base64URL.encode(raw.prefix(32)),
                "y": Base64URL.encode(raw.suffix(32)),
            ], options: [.sortedKeys, .withoutEscapingSlashes])
        let expected = Base64URL.encode(Data(SHA256.hash(data: canonical)))
        #expect(key.keyAuthorization(token: "tok_en-1") == "tok_en-1.\(expected)")
        #expect(expected.count == 43 && !expected.contains("="))
        #expect(try ACMEAccountKey(pem: key.pem).thumbprint == key.thumbprint)
    }

    @Test func theCSRNamesTheDomainAndIsSignedByTheCertificateKey() throws {
        let key = P256.Signing.PrivateKey()
        let der = try ACMEClient.signingRequest(domain: "morningproof.test", key: key)
        let csr = try CertificateSigningRequest(derEncoded: Array(der))
        #expect(csr.subject.description == "CN=morningproof.test")
        #expect(csr.publicKey == Certificate.PublicKey(key.publicKey))
        let request = try #require(try csr.attributes.extensionRequest)
        let names = try #require(try request.extensions.subjectAlternativeNames)
        #expect(Array(names) == [.dnsName("morningproof.test")])
        #expect(csr.publicKey.isValidSignature(csr.signature, for: csr))
    }

    @Test func aBadNonceIsSentAgainWithAFreshNonceAndEveryPostCarriesTheLastOne() async throws {
        let ca = ScriptedCA()
        ca.badNonces = 2
        let client = ACMEClient(directoryURL: ScriptedCA.directory, key: ACMEAccountKey(), transport: ca)
        try await client.register(email: "me@example.org")
        #expect(await client.accountURL == "https://ca.test/acct/1")
        let posts = ca.requests.filter { $0.method == .post }
        #expect(posts.count == 3)
        // The first nonce from newNonce, then each refusal's own Replay-Nonce: none used twice.
        #expect(posts.map(ScriptedCA.nonce) == ["nonce-1", "nonce-2", "nonce-3"])
        #expect(ca.requests.filter { $0.method == .head }.count == 1)
        let payloadText = try ScriptedCA.member("payload", of: posts[2])
        let payload = try #require(Base64URL.decode(payloadText))
        #expect(String(decoding: payload, as: UTF8.self).contains(#""contact":["mailto:me@example.org"]"#))
    }

    @Test func badNoncesWithoutEndAreAnErrorNotALoop() async throws {
        let ca = ScriptedCA()
        ca.badNonces = 1000
        let client = ACMEClient(directoryURL: ScriptedCA.directory, key: ACMEAccountKey(), transport: ca)
        await #expect(throws: ACMEError.self) { try await client.register(email: nil) }
        #expect(ca.requests.filter { $0.method == .post }.count == ACMEClient.badNonceRetries + 1)
    }

    /// A connection the CA closed before answering a POST (a kept-alive one it dropped, or Pebble
    /// 2.4.0 panicking): the POST is signed again with a fresh nonce, since the first may have been
    /// used, and sent again; a CA that never answers is an I/O error (74), not a `badNonce`.
    @Test func aPostLeftUnansweredIsSentAgainWithAFreshNonce() async throws {
        let ca = ScriptedCA()
        ca.unansweredPosts = 1
        let client = ACMEClient(directoryURL: ScriptedCA.directory, key: ACMEAccountKey(), transport: ca)
        try await client.register(email: nil)
        #expect(await client.accountURL == "https://ca.test/acct/1")
        let posts = ca.requests.filter { $0.method == .post }
        #expect(posts.map(ScriptedCA.nonce) == ["nonce-1", "nonce-2"])

        let silent = ScriptedCA()
        silent.unansweredPosts = 1000
        let error = try await Self.registrationError(silent)
        #expect(error.kind.exitCode == 74, "\(error.message)")
        #expect(error.message.contains("closed the connection"), "\(error.message)")
        #expect(silent.requests.filter { $0.method == .post }.count == ACMEClient.unansweredRetries + 1)
    }

    @Test func aDirectoryThatCannotBeReachedIsAnIOErrorAndARefusalAUsageError() async throws {
        let ca = ScriptedCA()
        ca.unreachable = true
        let error = try await Self.registrationError(ca)
        #expect(error.kind.exitCode == 74)
        #expect(error.message.hasPrefix("cannot reach the ACME directory at \(ScriptedCA.directory)"))

        let refusing = ScriptedCA()
        refusing.refuseAccount = ACMEProblem(
            type: "urn:ietf:params:acme:error:invalidContact", detail: "contact email has invalid domain", status: 400)
        let refused = try await Self.registrationError(refusing, email: "me@example.invalid")
        #expect(refused.kind.exitCode == 64)
        #expect(
            refused.message.contains(
                "refused https://ca.test/new-acct: invalidContact: contact email has invalid domain"))
    }

    /// What registering with `ca` fails with, as a person sees it.
    private static func registrationError(_ ca: ScriptedCA, email: String? = nil) async throws -> MorningProofError {
        let client = ACMEClient(directoryURL: ScriptedCA.directory, key: ACMEAccountKey(), transport: ca)
        do {
            try await client.register(email: email)
        } catch {
            return try #require(MorningProofError(error))
        }
        throw TestFailure("registered with \(email ?? "no email") although the CA should fail it")
    }
}

/// A CA that answers the directory, nonces and newAccount from a script, and records each request.
final class ScriptedCA: ACMETransport, @unchecked Sendable {
    static let directory = "https://ca.test/dir"
    private let lock = NSLock()
    private var recorded: [ACMEHTTPRequest] = []
    private var issued = 0
    var badNonces = 0
    /// How many POSTs get no answer (the connection closed before one).
    var unansweredPosts = 0
    var unreachable = false
    var refuseAccount: ACMEProblem?

    var requests: [ACMEHTTPRequest] { lock.withLock { recorded } }

    func send(_ request: ACMEHTTPRequest) async throws -> ACMEHTTPResponse {
        try lock.withLock {
            recorded.append(request)
            if unreachable { throw TestFailure("connection refused") }
            if request.method == .post && unansweredPosts > 0 {
                unansweredPosts -= 1
                throw TestFailure("the CA closed the connection before answering")
            }
            var nonce: [String: String] {
                issued += 1
                return ["Replay-Nonce": "nonce-\(issued)"]
            }
            switch (request.method, request.url) {
            case (.get, Self.directory):
                let directory =
                    #"{"newNonce":"https://ca.test/nonce","newAccount":"https://ca.test/new-acct","newOrder":"https://ca.test/new-order"}"#
                return ACMEHTTPResponse(status: 200, body: Data(directory.utf8))
            case (.head, "https://ca.test/nonce"):
                return ACMEHTTPResponse(status: 200, headers: nonce)
            case (.post, "https://ca.test/new-acct"):
                if badNonces > 0 {
                    badNonces -= 1
                    let problem =
                        #"{"type":"urn:ietf:params:acme:error:badNonce","detail":"JWS has an invalid anti-replay nonce"}"#
                    return ACMEHTTPResponse(status: 400, headers: nonce, body: Data(problem.utf8))
                }
                if let refuseAccount {
                    return ACMEHTTPResponse(status: 400, headers: nonce, body: try JSONEncoder().encode(refuseAccount))
                }
                return ACMEHTTPResponse(
                    status: 201, headers: nonce.merging(["Location": "https://ca.test/acct/1"]) { $1 },
                    body: Data(#"{"status":"valid"}"#.utf8))
            default:
                return ACMEHTTPResponse(status: 404, headers: nonce)
            }
        }
    }

    static func member(_ name: String, of request: ACMEHTTPRequest) throws -> String {
        let jws = try JSONDecoder().decode([String: String].self, from: request.body ?? Data())
        return jws[name] ?? ""
    }

    static func nonce(_ request: ACMEHTTPRequest) -> String {
        guard let protected = try? member("protected", of: request), let data = Base64URL.decode(protected),
            let header = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return "" }
        return header["nonce"] as? String ?? ""
    }
}
