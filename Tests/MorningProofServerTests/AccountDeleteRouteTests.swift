import Foundation
import HTTPTypes
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Issue 41: `DELETE /api/auth/account {"password"}` and `morningproof-server account delete`.
@Suite("Deleting an account: by its person with the password, by the operator")
struct AccountDeleteRouteTests {
    static let path = "/api/auth/account"

    @Test(arguments: Engine.available) func theAccountGoesWithItsPasswordAndItsEmailSignsUpAgain(engine: Engine)
        async throws
    {
        try await TestServer.run(on: engine) { api in
            let ada = try await api.signUp("ada@example.com", timezone: "UTC")
            let bob = try await api.signUp("bob@example.com", timezone: "UTC")
            for token in [ada, bob] {
                let made = try await api.send(.post, "/api/habits", token: token, json: #"{"name": "Walk"}"#)
                #expect(made.status == .created, "\(made.body)")
            }
            let wrong = try await api.send(.delete, Self.path, token: ada, json: #"{"password": "wrong horse"}"#)
            #expect(wrong.status == .forbidden && wrong.errorCode == "wrong_password", "\(wrong.body)")
            let none = try await api.send(.delete, Self.path, token: ada, json: "{}")
            #expect(none.status == .badRequest, "\(none.body)")
            let extra = try await api.send(
                .delete, Self.path, token: ada, json: #"{"password": "correct horse", "x": 1}"#)
            #expect(extra.status == .badRequest, "\(extra.body)")
            #expect(try await api.send(.get, "/api/habits", token: ada).status == .ok)

            let deleted = try await api.send(.delete, Self.path, token: ada, json: #"{"password": "correct horse"}"#)
            #expect(deleted.status == .noContent, "\(deleted.status) \(deleted.body)")
            #expect(try await api.send(.get, "/api/auth/me", token: ada).status == .unauthorized)
            let login = try await api.send(
                .post, "/api/auth/login", json: #"{"email": "ada@example.com", "password": "correct horse"}"#)
            #expect(login.status == .unauthorized)
            // Bob's account is as it was; Ada's email starts a new, empty account.
            let bobHabits = try await api.send(.get, "/api/habits", token: bob)
            #expect(bobHabits.status == .ok && bobHabits.body.contains("Walk"), "\(bobHabits.body)")
            let again = try await api.signUp("ada@example.com", timezone: "UTC")
            let fresh = try await api.send(.get, "/api/habits", token: again)
            #expect(fresh.status == .ok && !fresh.body.contains("Walk"), "\(fresh.body)")
        }
    }

    @Test(arguments: Engine.available) func theOwnerAccountIsRefused(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            let owner = try await server.ownerToken(zone: "UTC")
            try await server.run { api in
                let refused = try await api.send(
                    .delete, Self.path, token: owner, json: #"{"password": "correct horse"}"#)
                #expect(refused.status == .forbidden && refused.errorCode == "owner_account", "\(refused.body)")
                #expect(refused.errorMessage.contains("owner account"))
                #expect(try await api.send(.get, "/api/auth/me", token: owner).status == .ok)
            }
        }
    }

    @Test func theOperatorDeletesAfterConfirmingAndNeverTheOwner() async throws {
        let database = FileManager.default.temporaryDirectory
            .appendingPathComponent("morningproof-delete-\(UUID().uuidString)/data.sqlite").path
        do {
            let store = try AppDatabase.open(path: database)
            for email in ["ada@example.com", "bob@example.com"] {
                _ = try await store.createAccount(email: email, passwordHash: "h", timeZone: "UTC", at: Date())
            }
            try await store.setLogin(accountID: AccountProfile.ownerID, email: "owner@example.com", passwordHash: "h")
        }
        func run(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
            try BuiltBinary.run("morningproof-server", arguments + ["--db", database])
        }
        // Not a terminal and no --yes: a usage error, and nothing deleted.
        let unconfirmed = try run("account", "delete", "ada@example.com")
        #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("--yes"), "\(unconfirmed.stderr)")
        #expect(try run("account", "list").stdout.contains("ada@example.com"))

        let deleted = try run("account", "delete", "ada@example.com", "--yes")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("Deleted account 2 (ada@example.com)"), "\(deleted.stdout)")
        let listed = try run("account", "list").stdout
        #expect(!listed.contains("ada@example.com") && listed.contains("bob@example.com"), "\(listed)")

        let owner = try run("account", "delete", "owner@example.com", "--yes")
        #expect(owner.status == 64 && owner.stderr.contains("owner account"), "\(owner.stderr)")
        let nobody = try run("account", "delete", "ada@example.com", "--yes")
        #expect(nobody.status == 64 && nobody.stderr.contains("no account has the email"), "\(nobody.stderr)")
    }
}
