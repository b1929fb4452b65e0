import Foundation
import MorningProofCore

/// A small RFC 8555 client: one account, one order at a time. Every POST carries a fresh nonce
/// (the last answer's `Replay-Nonce`, else one from `newNonce`); a `badNonce` refusal is sent
/// again with a new one, as RFC 8555 §6.5 asks, up to `badNonceRetries` times.
public actor ACMEClient {
    public let directoryURL: String
    let key: ACMEAccountKey
    let transport: any ACMETransport
    /// How long to wait between two looks at a pending authorization or order, at first (it doubles,
    /// up to 5 s), and how long to look before giving up.
    let pollInterval: Duration
    let pollLimit: Duration
    public static let badNonceRetries = 5
    /// How many times a POST the CA left unanswered (the connection closed first) is signed again
    /// with a fresh nonce and sent again.
    public static let unansweredRetries = 2

    private var directory: ACMEDirectory?
    private var nonce: String?
    /// The account's URL (`kid`), once `register` has run.
    public private(set) var accountURL: String?

    public init(
        directoryURL: String, key: ACMEAccountKey, transport: any ACMETransport,
        pollInterval: Duration = .milliseconds(500), pollLimit: Duration = .seconds(180)
    ) {
        self.directoryURL = directoryURL
        self.key = key
        self.transport = transport
        self.pollInterval = pollInterval
        self.pollLimit = pollLimit
    }

    /// The directory, read once.
    func loadDirectory() async throws -> ACMEDirectory {
        if let directory { return directory }
        let response = try await send(ACMEHTTPRequest(method: .get, url: directoryURL))
        guard response.status == 200 else {
            throw ACMEError.unreachable(url: directoryURL, reason: "HTTP status \(response.status)")
        }
        let loaded = try decode(ACMEDirectory.self, response, url: directoryURL)
        directory = loaded
        return loaded
    }

    /// Creates the account of this key, or finds it when it exists (RFC 8555 §7.3); the terms of
    /// service are agreed to.
    public func register(email: String?) async throws {
        let directory = try await loadDirectory()
        let payload = NewAccount(termsOfServiceAgreed: true, contact: email.map { ["mailto:\($0)"] })
        let response = try await post(directory.newAccount, payload: try JSONEncoder().encode(payload), asKey: true)
        guard let location = response.headers["location"] else {
            throw ACMEError.unexpectedAnswer(url: directory.newAccount, reason: "no Location header for the account")
        }
        accountURL = location
    }

    /// A new order for `domain`: its URL and its first state.
    func newOrder(domain: String) async throws -> (url: String, order: ACMEOrder) {
        let directory = try await loadDirectory()
        let payload =
            #"{"identifiers":[{"type":"dns","value":\#(String(decoding: try JSONEncoder().encode(domain), as: UTF8.self))}]}"#
        let response = try await post(directory.newOrder, payload: Data(payload.utf8))
        guard let location = response.headers["location"] else {
            throw ACMEError.unexpectedAnswer(url: directory.newOrder, reason: "no Location header for the order")
        }
        return (location, try decode(ACMEOrder.self, response, url: directory.newOrder))
    }

    func authorization(_ url: String) async throws -> ACMEAuthorization {
        try decode(ACMEAuthorization.self, try await post(url, payload: nil), url: url)
    }

    func order(_ url: String) async throws -> ACMEOrder {
        try decode(ACMEOrder.self, try await post(url, payload: nil), url: url)
    }

    /// Tells the CA the challenge is ready to be validated (an empty JSON object).
    func respond(to challenge: ACMEChallenge) async throws {
        _ = try await post(challenge.url, payload: Data("{}".utf8))
    }

    /// Asks for the certificate of `csr` (DER).
    func finalize(_ order: ACMEOrder, csr: Data) async throws -> ACMEOrder {
        let payload = #"{"csr":"\#(Base64URL.encode(csr))"}"#
        return try decode(
            ACMEOrder.self, try await post(order.finalize, payload: Data(payload.utf8)), url: order.finalize)
    }

    /// The issued chain as PEM (`application/pem-certificate-chain`).
    func certificateChain(_ url: String) async throws -> String {
        let response = try await post(url, payload: nil)
        let chain = String(decoding: response.body, as: UTF8.self)
        guard chain.contains("-----BEGIN CERTIFICATE-----") else {
            throw ACMEError.unexpectedAnswer(url: url, reason: "no PEM certificate in the answer")
        }
        return chain
    }

    /// Looks at `url` again until `done` says it is finished, waiting longer each time.
    func poll<Value: Sendable>(
        _ url: String, _ read: (String) async throws -> Value, until done: (Value) -> Bool
    ) async throws -> Value {
        let clock = ContinuousClock()
        let deadline = clock.now + pollLimit
        var wait = pollInterval
        while true {
            let value = try await read(url)
            if done(value) { return value }
            guard clock.now + wait < deadline else { throw ACMEError.timedOut(url: url) }
            try await Task.sleep(for: wait)
            wait = min(wait * 2, .seconds(5))
        }
    }

    /// A signed POST (nil payload: POST-as-GET), sent again with a fresh nonce on `badNonce`, and
    /// when the CA closed the connection before answering (the nonce it carried may be used: the same
    /// bytes sent again would only meet `badNonce`, hiding why).
    func post(_ url: String, payload: Data?, asKey: Bool = false) async throws -> ACMEHTTPResponse {
        var attempt = 0
        var unanswered = 0
        while true {
            let nonce = try await takeNonce()
            let body = try key.signed(url: url, nonce: nonce, accountURL: asKey ? nil : accountURL, payload: payload)
            let response: ACMEHTTPResponse
            do {
                response = try await send(ACMEHTTPRequest(method: .post, url: url, body: body))
            } catch ACMEError.unreachable where unanswered < Self.unansweredRetries {
                unanswered += 1
                continue
            }
            if (200..<300).contains(response.status) { return response }
            let problem =
                (try? JSONDecoder().decode(ACMEProblem.self, from: response.body))
                ?? ACMEProblem(
                    type: "HTTP \(response.status)", detail: String(decoding: response.body.prefix(200), as: UTF8.self))
            if problem.isBadNonce && attempt < Self.badNonceRetries {
                attempt += 1
                continue
            }
            throw ACMEError.refused(url: url, problem: problem)
        }
    }

    /// The nonce of the last answer, once; else a new one from `newNonce`.
    private func takeNonce() async throws -> String {
        if let nonce {
            self.nonce = nil
            return nonce
        }
        let url = try await loadDirectory().newNonce
        _ = try await send(ACMEHTTPRequest(method: .head, url: url))
        guard let fresh = nonce else {
            throw ACMEError.unexpectedAnswer(url: url, reason: "no Replay-Nonce header")
        }
        self.nonce = nil
        return fresh
    }

    /// Sends through the transport; keeps the answer's nonce for the next POST.
    private func send(_ request: ACMEHTTPRequest) async throws -> ACMEHTTPResponse {
        let response: ACMEHTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as ACMEError {
            throw error
        } catch {
            throw ACMEError.unreachable(url: request.url, reason: "\(error)")
        }
        if let fresh = response.headers["replay-nonce"] { nonce = fresh }
        return response
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ response: ACMEHTTPResponse, url: String) throws -> Value
    {
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch {
            throw ACMEError.unexpectedAnswer(url: url, reason: "not the JSON of \(type): \(error)")
        }
    }
}

/// The payload of `newAccount`.
struct NewAccount: Encodable {
    var termsOfServiceAgreed: Bool
    var contact: [String]?
}
