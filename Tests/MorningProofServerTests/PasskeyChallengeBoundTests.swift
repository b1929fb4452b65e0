import Foundation
import GRDB
import HTTPTypes
import MorningProofPostgres
import MorningProofStoreContract
import MorningProofTestSupport
import PasskeyTestSupport
import Testing
import WebAuthn

@testable import MorningProofSQLite

/// Issue 41's passkey challenges, bounded: `POST /api/auth/passkeys/authentication` answers anyone,
/// so asking it for options must store nothing per call (a sealed challenge, checked at `finish`),
/// and an account's registration options neither; yet sign-in still works, a replayed assertion is
/// refused (with a counter of 0, as synced passkeys keep it, only the used challenge refuses it) and
/// an expired challenge too. Both engines.
@Suite("Passkey challenges: bounded, single use, short-lived")
struct PasskeyChallengeBoundTests {
    static let floodCalls = 10_000
    static let registrationCalls = 1_000

    @Test(arguments: Engine.available) func tenThousandOptionCallsStoreNothingAndSignInStillWorks(engine: Engine)
        async throws
    {
        try await TestServer.with(engine) { plain in
            let server = PasskeyRouteTests.server(plain)
            try await server.run { api in
                let (ada, authenticator) = try await Self.adaWithPasskey(api)

                let before = try await Self.rows(server.store)
                let statuses = try await Self.flood(api, Self.floodCalls, "/api/auth/passkeys/authentication", nil)
                let afterSignIn = try await Self.rows(server.store)
                let registrations = try await Self.flood(
                    api, Self.registrationCalls, "/api/auth/passkeys/registration", ada)
                let after = try await Self.rows(server.store)
                print(
                    "\(engine): rows before \(before), after \(Self.floodCalls) sign-in options \(afterSignIn),"
                        + " after \(Self.registrationCalls) registration options \(after)")
                #expect(statuses == [.ok: Self.floodCalls], "\(statuses)")
                #expect(registrations == [.ok: Self.registrationCalls], "\(registrations)")
                // The challenges' key, once: nothing per call.
                #expect(after - before <= 1, "rows before \(before), after \(afterSignIn) and \(after)")

                // Sign-in still works; the same assertion again is refused, even at once.
                let fresh = try await api.fromTheApp(.post, "/api/auth/passkeys/authentication")
                let assertion = try PasskeyRouteTests.assertion(
                    authenticator, challenge: try PasskeyRouteTests.challenge(fresh))
                let answers = try await withThrowingTaskGroup(of: Reply.self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            try await api.fromTheApp(.post, "/api/auth/passkeys/authentication/finish", json: assertion)
                        }
                    }
                    return try await group.reduce(into: [Reply]()) { $0.append($1) }
                }
                #expect(answers.filter { $0.status == .ok }.count == 1, "\(answers.map(\.body))")
                for refused in answers where refused.status != .ok {
                    #expect(
                        refused.status == .unauthorized && refused.errorCode == "passkey_refused", "\(refused.body)")
                }
                let replay = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/authentication/finish", json: assertion)
                #expect(replay.status == .unauthorized && replay.errorCode == "passkey_refused", "\(replay.body)")

                // A challenge answered after its lifetime is refused; one answered in time is not.
                let late = try await api.fromTheApp(.post, "/api/auth/passkeys/authentication")
                let inTime = try await api.fromTheApp(.post, "/api/auth/passkeys/authentication")
                server.advanceRealTime(by: 4 * 60)
                let answered = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/authentication/finish",
                    json: try PasskeyRouteTests.assertion(
                        authenticator, challenge: try PasskeyRouteTests.challenge(inTime)))
                #expect(answered.status == .ok, "\(answered.body)")
                server.advanceRealTime(by: 2 * 60)
                let expired = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/authentication/finish",
                    json: try PasskeyRouteTests.assertion(
                        authenticator, challenge: try PasskeyRouteTests.challenge(late)))
                #expect(expired.status == .unauthorized && expired.errorCode == "passkey_refused", "\(expired.body)")
            }
        }
    }

    @Test(arguments: Engine.available) func aChallengeIsNotForAnotherCeremonyOrAForgedOne(engine: Engine)
        async throws
    {
        try await TestServer.with(engine) { plain in
            let server = PasskeyRouteTests.server(plain)
            try await server.run { api in
                let (ada, authenticator) = try await Self.adaWithPasskey(api)
                // A sign-in's challenge does not register a passkey.
                var other = TestAuthenticator()
                other.credentialID = Array(repeating: 3, count: 16)
                let signIn = try await api.fromTheApp(.post, "/api/auth/passkeys/authentication")
                let crossed = try await api.fromTheApp(
                    .post, "/api/auth/passkeys/registration/finish", token: ada,
                    json: PasskeyRouteTests.registration(other, challenge: try PasskeyRouteTests.challenge(signIn)))
                #expect(crossed.status == .badRequest && crossed.errorCode == "passkey_refused", "\(crossed.body)")
                // A challenge the client changed, or made up, is refused.
                var forged = try PasskeyRouteTests.challenge(
                    try await api.fromTheApp(.post, "/api/auth/passkeys/authentication"))
                forged[forged.count / 2] ^= 1
                for challenge in [forged, Array(repeating: 7, count: 32), []] {
                    let reply = try await api.fromTheApp(
                        .post, "/api/auth/passkeys/authentication/finish",
                        json: try PasskeyRouteTests.assertion(authenticator, challenge: challenge))
                    #expect(reply.status == .unauthorized && reply.errorCode == "passkey_refused", "\(reply.body)")
                }
            }
        }
    }

    /// Ada signed up, with the test's passkey added: her token, and the authenticator.
    static func adaWithPasskey(_ api: TestAPI) async throws -> (String, TestAuthenticator) {
        let ada = try await api.signUp("ada@example.com", timezone: "UTC")
        let authenticator = TestAuthenticator()
        let options = try await api.fromTheApp(.post, "/api/auth/passkeys/registration", token: ada)
        let added = try await api.fromTheApp(
            .post, "/api/auth/passkeys/registration/finish", token: ada,
            json: PasskeyRouteTests.registration(authenticator, challenge: try PasskeyRouteTests.challenge(options)))
        #expect(added.status == .created, "\(added.body)")
        return (ada, authenticator)
    }

    /// `count` POSTs to `path`, eight at a time: how many answered each status.
    static func flood(_ api: TestAPI, _ count: Int, _ path: String, _ token: String?) async throws
        -> [HTTPResponse.Status: Int]
    {
        try await withThrowingTaskGroup(of: [HTTPResponse.Status: Int].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var statuses: [HTTPResponse.Status: Int] = [:]
                    for _ in stride(from: worker, to: count, by: 8) {
                        statuses[try await api.fromTheApp(.post, path, token: token).status, default: 0] += 1
                    }
                    return statuses
                }
            }
            return try await group.reduce(into: [:]) { total, part in total.merge(part, uniquingKeysWith: +) }
        }
    }

    /// Every row of every table of the database.
    static func rows(_ store: any AccountStore & PerAccountStore) async throws -> Int {
        if let sqlite = store as? AppDatabase {
            return try await sqlite.writer.read { db in
                try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                ).reduce(0) { total, table in
                    total + (try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\"") ?? 0)
                }
            }
        }
        let postgres = try #require(store as? PostgresStore)
        var total = 0
        for table in try await TestPostgres.strings(
            postgres,
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
        ) {
            total +=
                Int(try await TestPostgres.strings(postgres, "SELECT count(*)::text FROM \"\(table)\"").first ?? "")
                ?? 0
        }
        return total
    }
}
