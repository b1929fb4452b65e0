import Foundation
import HTTPTypes
import MorningProofCore
import MorningProofService
import MorningProofTestSupport
import PasskeyTestSupport
import Testing

/// Issue 41's passkeys over HTTP, on both engines: a registration and a sign-in signed by a P-256
/// key in the test, and each refusal (a used challenge, another account's challenge or passkey
/// id, a counter that did not go forward, another origin, a removed passkey, a disabled account).
@Suite("Passkeys: register, sign in, list, remove")
struct PasskeyRouteTests {
    static func server(_ server: TestServer) -> TestServer {
        var server = server
        server.configuration.publicURL = "https://habits.example"
        return server
    }

    /// The options' challenge, decoded.
    static func challenge(_ reply: Reply) throws -> [UInt8] {
        let text = try #require(reply.json["challenge"] as? String, "\(reply.body)")
        return Array(try #require(Base64URL.decode(text)))
    }

    static func registration(
        _ authenticator: TestAuthenticator, challenge: [UInt8], origin: String = "https://habits.example",
        name: String = "Laptop"
    ) -> String {
        let clientData = TestAuthenticator.clientData(type: "webauthn.create", challenge: challenge, origin: origin)
        let id = Base64URL.encode(authenticator.credentialID)
        return """
            {"id": "\(id)", "rawId": "\(id)", "type": "public-key", "name": "\(name)",
             "response": {"clientDataJSON": "\(Base64URL.encode(clientData))",
              "attestationObject": "\(Base64URL.encode(authenticator.attestationObject()))", "transports": ["internal"]},
             "clientExtensionResults": {}, "authenticatorAttachment": "platform"}
            """
    }

    static func assertion(_ authenticator: TestAuthenticator, challenge: [UInt8], userHandle: [UInt8]? = nil) throws
        -> String
    {
        let clientData = TestAuthenticator.clientData(type: "webauthn.get", challenge: challenge)
        let (data, signature) = try authenticator.assertion(clientDataJSON: clientData)
        let id = Base64URL.encode(authenticator.credentialID)
        let handle = userHandle.map { #", "userHandle": "\#(Base64URL.encode($0))""# } ?? ""
        return """
            {"id": "\(id)", "rawId": "\(id)", "type": "public-key",
             "response": {"clientDataJSON": "\(Base64URL.encode(clientData))",
              "authenticatorData": "\(Base64URL.encode(data))", "signature": "\(Base64URL.encode(signature))"\(handle)}}
            """
    }

    static func signIn(_ api: TestAPI, _ authenticator: TestAuthenticator) async throws -> Reply {
        let options = try await api.fromTheApp(.post, "/api/auth/passkeys/authentication")
        #expect(options.status == .ok, "\(options.body)")
        return try await api.fromTheApp(
            .post, "/api/auth/passkeys/authentication/finish",
            json: try assertion(authenticator, challenge: try challenge(options)))
    }

    @Test(arguments: Engine.available) func aPasskeyIsAddedSignsInAndIsRemoved(engine: Engine) async throws {
        try await TestServer.with(engine) { plain in
            try await Self.server(plain).run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "UTC")
                let options = try await api.fromTheApp(.post, "/api/auth/passkeys/registration", token: ada)
                #expect(options.status == .ok, "\(options.body)")
                #expect((options.json["rp"] as? [String: Any])?["id"] as? String == "habits.example")
                let selection = options.json["authenticatorSelection"] as? [String: Any]
                #expect(selection?["residentKey"] as? String == "required")
                #expect(selection?["userVerification"] as? String == "preferred")
                #expect((options.json["excludeCredentials"] as? [Any])?.isEmpty == true)
                let userID = try #require((options.json["user"] as? [String: Any])?["id"] as? String)

                var authenticator = TestAuthenticator()
                let body = Self.registration(authenticator, challenge: try Self.challenge(options))
                let added = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/registration/finish", token: ada, json: body)
                #expect(added.status == .created, "\(added.body)")
                #expect(added.json["name"] as? String == "Laptop")
                let id = try #require(added.json["id"] as? Int)
                // The challenge is used: the same answer again is refused.
                let again = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/registration/finish", token: ada, json: body)
                #expect(again.status == .badRequest && again.errorCode == "passkey_refused", "\(again.body)")
                let next = try await api.fromTheApp(.post, "/api/auth/passkeys/registration", token: ada)
                let excluded = try #require(next.json["excludeCredentials"] as? [[String: Any]])
                #expect(excluded.map { $0["id"] as? String } == [Base64URL.encode(authenticator.credentialID)])
                let twice = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/registration/finish", token: ada,
                    json: Self.registration(authenticator, challenge: try Self.challenge(next)))
                #expect(twice.status == .conflict && twice.errorCode == "passkey_exists", "\(twice.body)")

                authenticator.signCount = 1
                let signedIn = try await Self.signIn(api, authenticator)
                #expect(signedIn.status == .ok, "\(signedIn.body)")
                let token = try #require(signedIn.json["token"] as? String)
                let me = try await api.fromTheApp(.get, "/api/auth/me", token: token)
                #expect(me.json["email"] as? String == "ada@example.com", "\(me.body)")
                // With the user handle the options gave; a counter that did not move is refused.
                authenticator.signCount = 2
                let options2 = try await api.fromTheApp(.post, "/api/auth/passkeys/authentication")
                let withHandle = try Self.assertion(
                    authenticator, challenge: try Self.challenge(options2), userHandle: Array(Base64URL.decode(userID)!)
                )
                let handled = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/authentication/finish", json: withHandle)
                #expect(handled.status == .ok, "\(handled.body)")
                let replay = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/authentication/finish", json: withHandle)
                #expect(replay.status == .unauthorized && replay.errorCode == "passkey_refused", "\(replay.body)")
                let stale = try await Self.signIn(api, authenticator)
                #expect(stale.status == .unauthorized && stale.errorMessage.contains("counter"), "\(stale.body)")

                let list = try await api.fromTheApp(.get, "/api/auth/passkeys", token: ada)
                let passkeys = try #require(
                    try JSONSerialization.jsonObject(with: Data(list.bytes)) as? [[String: Any]])
                #expect(passkeys.count == 1 && passkeys.first?["lastUsedAt"] is String, "\(list.body)")

                // Another account sees none of it and cannot remove it.
                let bob = try await api.signUp("bob@example.com", timezone: "UTC")
                #expect(try await api.fromTheApp(.get, "/api/auth/passkeys", token: bob).body == "[]")
                let stranger = try await api.fromTheApp(.delete, "/api/auth/passkeys/\(id)", token: bob)
                #expect(stranger.status == .notFound, "\(stranger.body)")
                // Nor use a challenge issued to another account.
                let bobs = try await api.fromTheApp(.post, "/api/auth/passkeys/registration", token: bob)
                var other = TestAuthenticator()
                other.credentialID = [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9]
                let borrowed = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/registration/finish", token: ada,
                    json: Self.registration(other, challenge: try Self.challenge(bobs)))
                #expect(borrowed.status == .badRequest && borrowed.errorCode == "passkey_refused", "\(borrowed.body)")

                #expect(try await api.fromTheApp(.delete, "/api/auth/passkeys/\(id)", token: ada).status == .noContent)
                authenticator.signCount = 3
                let removed = try await Self.signIn(api, authenticator)
                #expect(removed.status == .unauthorized && removed.errorCode == "passkey_refused", "\(removed.body)")
                #expect(try await api.fromTheApp(.delete, "/api/auth/passkeys/\(id)", token: ada).status == .notFound)
            }
        }
    }

    @Test(arguments: Engine.available) func anotherOriginIsRefusedAndADisabledAccountGets403(engine: Engine)
        async throws
    {
        try await TestServer.with(engine) { plain in
            let server = Self.server(plain)
            try await server.run { api in
                let ada = try await api.signUp("ada@example.com", timezone: "UTC")
                var authenticator = TestAuthenticator()
                let options = try await api.fromTheApp(.post, "/api/auth/passkeys/registration", token: ada)
                let phished = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/registration/finish", token: ada,
                    json: Self.registration(
                        authenticator, challenge: try Self.challenge(options), origin: "https://habits.example.evil"))
                #expect(phished.status == .badRequest && phished.errorMessage.contains("origin"), "\(phished.body)")
                let fresh = try await api.fromTheApp(.post, "/api/auth/passkeys/registration", token: ada)
                let added = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/registration/finish", token: ada,
                    json: Self.registration(authenticator, challenge: try Self.challenge(fresh)))
                #expect(added.status == .created, "\(added.body)")

                let service = AccountService(database: server.store, hasher: UnusedHasher())
                try await service.setDisabled(email: "ada@example.com", true, now: Date())
                authenticator.signCount = 1
                let refused = try await Self.signIn(api, authenticator)
                #expect(refused.status == .forbidden && refused.errorCode == "account_disabled", "\(refused.body)")
            }
        }
    }

    @Test(arguments: Engine.available) func failedPasskeySignInsAreCountedByTheSignInLimits(engine: Engine)
        async throws
    {
        try await TestServer.with(engine) { plain in
            try await Self.server(plain).run { api in
                let authenticator = TestAuthenticator()
                var statuses: [HTTPResponse.Status] = []
                for _ in 0..<21 {
                    let options = try await api.fromTheApp(.post, "/api/auth/passkeys/authentication")
                    let reply = try await api.fromTheApp(
                        .post, "/api/auth/passkeys/authentication/finish",
                        json: try Self.assertion(authenticator, challenge: try Self.challenge(options)))
                    statuses.append(reply.status)
                }
                #expect(statuses.first == .unauthorized, "\(statuses)")
                #expect(statuses.last == .tooManyRequests, "\(statuses)")
            }
        }
    }
}

extension TestAPI {
    /// `send` as the web app served at https://habits.example sends it: with the `Origin` header that
    /// a browser's fetch of a POST carries, which a server with `--public-url` checks for passkeys.
    func fromTheApp(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: String? = nil
    ) async throws -> Reply {
        try await send(method, path, token: token, json: json, headers: [.origin: "https://habits.example"])
    }
}
