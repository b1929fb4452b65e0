import Foundation
import MorningProofCore
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// A request checks its token, then writes; an account deleted in between makes the database's
/// foreign key refuse the write. That is "not found" (404), as the row is, and
/// never "the database is unavailable; try again" (503), which the engines said before (attack43:
/// DELETE /api/auth/account racing the account's own writes answered them 503 on both engines).
@Suite struct RemovedMeanwhileTests {
    @Test(arguments: Engine.available) func aWriteForAnAccountDeletedMeanwhileIsNotFound(engine: Engine) async throws {
        try await engine.withStore { store in
            let ada = try await Fixture.account(store, "ada@example.com")
            let account = store.scoped(to: ada.id)
            #expect(try await store.deleteAccount(ada.id))
            try await Self.expectNotFound("a habit of the deleted account") {
                _ = try await account.addHabit(Fixture.habit("Read"))
            }
            try await Self.expectNotFound("a setting of the deleted account") {
                try await account.setSetting(GateSettings.cutoffKey, to: "10:00")
            }
        }
    }

    static func expectNotFound(_ what: String, _ write: () async throws -> Void) async throws {
        do {
            try await write()
            Issue.record("\(what) was stored")
        } catch let error as StoreError {
            #expect(error.code == .notFound, "\(what): \(error.code) \(error.message)")
            #expect(error.morningProofError.kind == .notFound)
        }
    }
}
