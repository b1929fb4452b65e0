import Foundation

/// The CA's directory: where each kind of request goes (RFC 8555 §7.1.1).
struct ACMEDirectory: Decodable, Sendable {
    var newNonce: String
    var newAccount: String
    var newOrder: String
}

/// An order for one certificate (RFC 8555 §7.1.3).
struct ACMEOrder: Decodable, Sendable {
    var status: String
    var authorizations: [String]
    var finalize: String
    var certificate: String?
    var error: ACMEProblem?
}

/// What the CA needs to see before it issues for one identifier (RFC 8555 §7.1.4).
struct ACMEAuthorization: Decodable, Sendable {
    struct Identifier: Decodable, Sendable {
        var type: String
        var value: String
    }
    var status: String
    var identifier: Identifier
    var challenges: [ACMEChallenge]
}

/// One way to prove control of the identifier (RFC 8555 §8).
struct ACMEChallenge: Decodable, Sendable {
    var type: String
    var url: String
    var status: String
    var token: String?
    var error: ACMEProblem?
}

/// A request to the CA, and its answer, as the client sends and reads them (`ACMETransport`).
public struct ACMEHTTPRequest: Sendable, Equatable {
    public enum Method: String, Sendable { case get = "GET", head = "HEAD", post = "POST" }
    public var method: Method
    public var url: String
    /// A POST's JWS (`application/jose+json`).
    public var body: Data?

    public init(method: Method, url: String, body: Data? = nil) {
        self.method = method
        self.url = url
        self.body = body
    }
}

public struct ACMEHTTPResponse: Sendable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { $1 }
        self.body = body
    }
}

/// How the client reaches the CA: AsyncHTTPClient in the server (`ACMEHTTPClient`), a script in tests.
public protocol ACMETransport: Sendable {
    /// Sends `request`; throws only when no answer came (the CA cannot be reached).
    func send(_ request: ACMEHTTPRequest) async throws -> ACMEHTTPResponse
}
