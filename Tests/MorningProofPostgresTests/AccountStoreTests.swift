import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Accounts and tokens: the same assertions on SQLite and on PostgreSQL.
@Suite struct AccountStoreTests {
    @Test(arguments: Engine.available)
    func emailsAreUniqueInAnyASCIICase(engine: Engine) async throws {
        try await engine.withStore { store in
            let ada = try await Fixture.account(store, "Ada@Example.com")
            #expect(
                try await store.createAccount(
                    email: "ada@EXAMPLE.com", passwordHash: "x", timeZone: nil, at: Fixture.noon)
                    == nil)
            #expect(try await store.accountID(email: "ADA@example.COM") == ada.id)
            let credentials = try #require(try await store.credentials(email: "ada@example.com"))
            #expect(credentials.id == ada.id && credentials.passwordHash == "hash-Ada@Example.com")
            #expect(try await store.credentials(email: "nobody@example.com") == nil)
            #expect(try await store.accountID(email: "nobody@example.com") == nil)
            // As SQLite's NOCASE: only ASCII letters fold, so these are two addresses.
            let upper = try await store.createAccount(
                email: "ÉMILE@example.com", passwordHash: "x", timeZone: nil, at: Fixture.noon)
            let lower = try await store.createAccount(
                email: "émile@example.com", passwordHash: "x", timeZone: nil, at: Fixture.noon)
            #expect(upper != nil && lower != nil && upper?.id != lower?.id)
        }
    }

    @Test(arguments: Engine.available)
    func aProfileChangeOfZoneIsRecordedAsTravel(engine: Engine) async throws {
        try await engine.withStore { store in
            let ada = try await Fixture.account(store, "ada@example.com", zone: "Europe/Istanbul")
            let changed = try await store.changeProfile(
                of: ada.id, timeZone: "America/New_York", dayStart: 240, weekStart: nil, at: Fixture.hour(1))
            #expect(
                changed
                    == AccountProfile(
                        id: ada.id, email: "ada@example.com", timeZone: "America/New_York", dayStart: 240, weekStart: 1)
            )
            #expect(try await store.profile(of: ada.id) == changed)
            // The week start alone, and the same clock again, move no one.
            _ = try await store.changeProfile(
                of: ada.id, timeZone: nil, dayStart: nil, weekStart: 7, at: Fixture.hour(2))
            _ = try await store.changeProfile(
                of: ada.id, timeZone: "America/New_York", dayStart: 240, weekStart: nil, at: Fixture.hour(3))
            #expect(try await store.profile(of: ada.id)?.weekStart == 7)
            let history = try #require(
                try await store.dailyUpdateHistory(tokenHash: "token-ada@example.com", at: Fixture.hour(4)) { _ in nil }
            )
            let expected = ZoneChange(
                at: Fixture.hour(1), from: DayClock(zoneIdentifier: "Europe/Istanbul", dayStart: 0)!,
                to: DayClock(zoneIdentifier: "America/New_York", dayStart: 240)!)
            #expect(history.history.zoneChanges == [expected])
            #expect(history.account.weekStart == 7)
            #expect(
                try await store.changeProfile(of: 999, timeZone: "UTC", dayStart: nil, weekStart: nil, at: Fixture.noon)
                    == nil)
        }
    }

    @Test(arguments: Engine.available)
    func theFirstZoneEverSetIsAChoiceNotATrip(engine: Engine) async throws {
        try await engine.withStore { store in
            let bo = try await Fixture.account(store, "bo@example.com", zone: nil)
            _ = try await store.changeProfile(
                of: bo.id, timeZone: "Asia/Tokyo", dayStart: nil, weekStart: nil, at: Fixture.noon)
            let history = try #require(
                try await store.dailyUpdateHistory(tokenHash: "token-bo@example.com", at: Fixture.noon) { _ in nil })
            #expect(history.account.timeZone == "Asia/Tokyo")
            #expect(history.history.zoneChanges.isEmpty)
        }
    }

    @Test(arguments: Engine.available)
    func tokensAreListedRevokedAndExpire(engine: Engine) async throws {
        try await engine.withStore { store in
            let ada = try await Fixture.account(store, "ada@example.com")
            let bo = try await Fixture.account(store, "bo@example.com")
            let login = try await store.insertToken(
                accountID: ada.id, name: "login", tokenHash: "login-ada", createdAt: Fixture.noon,
                expiresAt: Fixture.hour(1))
            #expect(login.email == "ada@example.com" && login.accountID == ada.id && login.expiresAt == Fixture.hour(1))

            let adas = try await store.tokens(accountID: ada.id)
            #expect(adas.map(\.name) == ["phone", "login"])
            #expect(adas.last == login)
            #expect(
                try await store.tokens(accountID: nil).map(\.email) == [
                    "ada@example.com", "bo@example.com", "ada@example.com",
                ])

            #expect(try await store.account(tokenHash: "login-ada", at: Fixture.hour(0.5))?.id == ada.id)
            #expect(try await store.account(tokenHash: "login-ada", at: Fixture.hour(1)) == nil)
            #expect(try await store.account(tokenHash: "token-ada@example.com", at: Fixture.hour(1000))?.id == ada.id)
            #expect(try await store.account(tokenHash: "no-such-token", at: Fixture.noon) == nil)

            // A new token takes the account's expired ones away.
            _ = try await store.insertToken(
                accountID: ada.id, name: "login", tokenHash: "login-ada-2", createdAt: Fixture.hour(2), expiresAt: nil)
            #expect(try await store.tokens(accountID: ada.id).map(\.name) == ["phone", "login"])
            #expect(try await store.tokens(accountID: ada.id).contains { $0.id == login.id } == false)

            let bosToken = try #require(try await store.tokens(accountID: bo.id).first)
            #expect(try await store.revokeToken(id: bosToken.id, accountID: ada.id) == false)
            #expect(try await store.revokeToken(id: bosToken.id, accountID: bo.id) == true)
            #expect(try await store.revokeToken(id: bosToken.id, accountID: nil) == false)
            #expect(try await store.revokeToken(hash: "token-ada@example.com") == true)
            #expect(try await store.revokeToken(hash: "token-ada@example.com") == false)
            #expect(try await store.account(tokenHash: "token-ada@example.com", at: Fixture.noon) == nil)
            #expect(try await store.tokens(accountID: nil).map(\.name) == ["login"])
        }
    }
}
