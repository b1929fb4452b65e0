import Foundation
import MorningProofCore
import MorningProofStore
import Testing

@testable import MorningProofService

/// Stands in for bcrypt: the tests are about the rules around it.
private struct PlainHasher: PasswordHasher {
    func hash(_ password: String) async throws -> String { "hashed " + password }
    func verify(_ password: String, hash: String) async throws -> Bool { hash == "hashed " + password }
}

@Suite("Accounts, tokens and daily updates as use cases")
struct AccountServiceTests {
    let database: AppDatabase
    let accounts: AccountService
    static let now = ISOInstant.parse("2026-03-10T12:00:00Z")!

    init() throws {
        database = try AppDatabase.inMemory()
        accounts = AccountService(database: database, hasher: PlainHasher())
    }

    @Test func theExistingDataIsTheOwnerAccount() async throws {
        let owner = try #require(try await database.profile(of: AccountProfile.ownerID))
        #expect(owner.email == nil && owner.timeZone == nil)
        try database.changeClock(to: DayClock(zoneIdentifier: "Asia/Tokyo", dayStart: 240)!, at: Self.now)
        #expect(try await database.profile(of: 1)?.clock == DayClock(zoneIdentifier: "Asia/Tokyo", dayStart: 240))
    }

    @Test func passwordsAreStoredOnlyAsAHashOfTheirSHA256() async throws {
        let (token, profile) = try await accounts.signUp(
            email: "ada@example.com", password: "correct horse", timeZone: nil, now: Self.now)
        #expect(profile.id == 2)
        let stored = try #require(try await database.credentials(email: "ADA@EXAMPLE.COM"))
        #expect(stored.passwordHash == "hashed " + AccountService.prepared("correct horse"))
        #expect(try await accounts.tokens.authenticate(PresentedToken(token.token, at: Self.now))?.id == 2)
        #expect(token.record.expiresAt == Self.now.addingTimeInterval(AccountService.sessionLifetime))
    }

    @Test func signInsAreThrottled() async throws {
        _ = try await accounts.signUp(email: "ada@example.com", password: "correct horse", timeZone: nil, now: Self.now)
        for _ in 1...5 {
            await #expect(throws: ServiceError.self) {
                try await accounts.logIn(
                    email: "ada@example.com", password: "wrong", address: "10.0.0.1", now: Self.now)
            }
        }
        do {
            _ = try await accounts.logIn(
                email: "ada@example.com", password: "correct horse", address: "10.0.0.2", now: Self.now)
            Issue.record("signed in past the limit")
        } catch let error as ServiceError {
            #expect(error.kind == .tooManyRequests(retryAfter: 900))
        }
        let later = Self.now.addingTimeInterval(900)
        _ = try await accounts.logIn(
            email: "ada@example.com", password: "correct horse", address: "10.0.0.2", now: later)
    }

    @Test func onlyOneDailyUpdateADay() async throws {
        let (issued, _) = try await accounts.signUp(
            email: "ada@example.com", password: "correct horse", timeZone: "Asia/Tokyo", now: Self.now)
        let token = PresentedToken(issued.token, at: Self.now)
        let service = DailyUpdateService(database: database)
        let update = try await service.record(metrics: ["mood": .number(4)], score: nil, token: token, now: Self.now)
        #expect(update.day == LocalDay("2026-03-10"))
        #expect(update.zone == "Asia/Tokyo")
        await #expect(throws: ServiceError(.conflict, code: "already_completed", "Daily check-in already completed")) {
            try await service.record(metrics: [:], score: 1, token: token, now: Self.now.addingTimeInterval(3600))
        }
        let summary = try await service.summary(token: token, now: Self.now)
        #expect(summary.today == update)
        #expect(summary.currentStreak == 1)
        // The next day, yesterday's update is not today's.
        #expect(try await service.summary(token: token, now: Self.now.addingTimeInterval(86_400)).today == nil)
        await #expect(throws: TokenService.invalidToken) {
            try await service.summary(token: PresentedToken("mp_nonsense", at: Self.now), now: Self.now)
        }
    }

    @Test func tokensForScriptsNeverExpireAndCanBeRevoked() async throws {
        let tokens = TokenService(database: database)
        let issued = try await tokens.createToken(email: nil, name: " backup ", now: Self.now)
        #expect(issued.record.name == "backup")
        #expect(issued.record.expiresAt == nil)
        #expect(try await tokens.authenticate(PresentedToken(issued.token, at: .distantFuture))?.id == 1)
        await #expect(throws: MorningProofError.self) {
            try await tokens.createToken(email: nil, name: "a\nb", now: Self.now)
        }
        try await tokens.revokeToken(id: issued.record.id)
        #expect(try await tokens.authenticate(PresentedToken(issued.token, at: Self.now)) == nil)
        await #expect(throws: ServiceError.self) { try await tokens.revokeToken(id: issued.record.id) }
    }
}
