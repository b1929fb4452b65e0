import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

/// Stands in for bcrypt: the tests are about the rules around it.
private struct PlainHasher: PasswordHasher {
    func hash(_ password: String) async throws -> String { "hashed " + password }
    func verify(_ password: String, hash: String) async throws -> Bool { hash == "hashed " + password }
}

/// PlainHasher that takes a while, as bcrypt does, so that simultaneous sign-ins overlap.
private struct SlowHasher: PasswordHasher {
    func hash(_ password: String) async throws -> String {
        try await Task.sleep(for: .milliseconds(50))
        return "hashed " + password
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        try await Task.sleep(for: .milliseconds(50))
        return hash == "hashed " + password
    }
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
        try await database.changeClock(to: DayClock(zoneIdentifier: "Asia/Tokyo", dayStart: 240)!, at: Self.now)
        #expect(try await database.profile(of: 1)?.clock == DayClock(zoneIdentifier: "Asia/Tokyo", dayStart: 240))
    }

    @Test func passwordsAreStoredOnlyAsAHashOfTheirSHA256() async throws {
        let signUp = try await accounts.signUp(
            email: "ada@example.com", password: "correct horse", timeZone: nil, address: "192.0.2.1", now: Self.now)
        let (token, profile) = (signUp.token, signUp.profile)
        #expect(profile.id == 2)
        let stored = try #require(try await database.credentials(email: "ADA@EXAMPLE.COM"))
        #expect(stored.passwordHash == "hashed " + AccountService.prepared("correct horse"))
        #expect(try await accounts.tokens.authenticate(PresentedToken(token.token, at: Self.now))?.id == 2)
        #expect(token.record.expiresAt == Self.now.addingTimeInterval(AccountService.sessionLifetime))
    }

    /// Five failures from one address lock that address out for the email, right password or not;
    /// the owner at another address still signs in, until 20 failures from anywhere lock the email.
    @Test func signInsAreThrottledPerDeviceAndPerEmail() async throws {
        _ = try await accounts.signUp(
            email: "ada@example.com", password: "correct horse", timeZone: nil, address: "10.0.0.9", now: Self.now)
        for _ in 1...5 {
            await #expect(throws: AccountService.wrongCredentials) {
                try await accounts.logIn(
                    email: "ada@example.com", password: "wrong", address: "10.0.0.1", now: Self.now)
            }
        }
        let locked = await #expect(throws: MorningProofError.self) {
            try await accounts.logIn(
                email: "ada@example.com", password: "correct horse", address: "10.0.0.1", now: Self.now)
        }
        #expect(locked?.code == "too_many_attempts")
        _ = try await accounts.logIn(
            email: "ada@example.com", password: "correct horse", address: "10.0.0.2", now: Self.now)
        for address in 3...17 {
            await #expect(throws: AccountService.wrongCredentials) {
                try await accounts.logIn(
                    email: "ADA@example.com", password: "wrong", address: "10.0.0.\(address)", now: Self.now)
            }
        }
        // 20 failures for the email from anywhere: the owner's device waits too, for the window.
        do {
            _ = try await accounts.logIn(
                email: "ada@example.com", password: "correct horse", address: "10.0.0.2", now: Self.now)
            Issue.record("signed in past the limit")
        } catch let error as MorningProofError {
            #expect(error.kind == .tooManyRequests(retryAfter: 900))
            #expect(error.code == "too_many_attempts")
        }
        _ = try await accounts.logIn(
            email: "ada@example.com", password: "correct horse", address: "10.0.0.2",
            now: Self.now.addingTimeInterval(900))
    }

    /// The limit holds under concurrency: attempts are counted before the password is checked, so
    /// of 40 at once only the limit's number reach the check, and the right password among them is
    /// refused once the limit is reached.
    @Test func simultaneousGuessesGetNoMoreThanTheLimit() async throws {
        _ = try await accounts.signUp(
            email: "ada@example.com", password: "correct horse", timeZone: nil, address: "10.0.0.9", now: Self.now)
        let accounts = AccountService(database: database, hasher: SlowHasher())
        let outcomes = await withTaskGroup(of: String.self) { group in
            for n in 0..<40 {
                group.addTask {
                    do {
                        _ = try await accounts.logIn(
                            email: "ada@example.com", password: n == 20 ? "correct horse" : "wrong \(n)",
                            address: "10.0.0.1", now: Self.now)
                        return "signed in"
                    } catch let error as MorningProofError {
                        return error.code ?? "\(error)"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(outcomes["wrong_credentials", default: 0] + outcomes["signed in", default: 0] <= 5, "\(outcomes)")
        #expect(outcomes["too_many_attempts", default: 0] >= 35, "\(outcomes)")
        let locked = await #expect(throws: MorningProofError.self) {
            try await accounts.logIn(
                email: "ada@example.com", password: "correct horse", address: "10.0.0.1", now: Self.now)
        }
        #expect(locked?.code == "too_many_attempts")
    }

    /// Found by attack: a sign-in with a NUL in its email skipped the limits and cost a bcrypt each,
    /// so one address could keep the CPU pool busy without end. It is counted like any other.
    @Test func signInsWithANULInTheEmailAreLimitedToo() async throws {
        var outcomes: [String: Int] = [:]
        for n in 0..<25 {
            do {
                _ = try await accounts.logIn(
                    email: "ada\(n)\u{0}@example.com", password: "guess \(n)", address: "10.0.0.3", now: Self.now)
            } catch let error as MorningProofError {
                outcomes[error.code ?? "\(error)", default: 0] += 1
            }
        }
        #expect(outcomes == ["wrong_credentials": 20, "too_many_attempts": 5], "\(outcomes)")
    }

    /// A sign-up for a taken email is a sign-in: the account's token for its password, else the
    /// failed sign-in's 401, counted against the email. Sign-ups are limited per address.
    @Test func signUpsForATakenEmailAnswerAsSignInsAndAreLimitedPerAddress() async throws {
        let first = try await accounts.signUp(
            email: "ada@example.com", password: "correct horse", timeZone: nil, address: "10.0.0.1", now: Self.now)
        #expect(first.created)
        let again = try await accounts.signUp(
            email: "ADA@example.com", password: "correct horse", timeZone: nil, address: "10.0.0.1", now: Self.now)
        #expect(!again.created && again.profile.id == first.profile.id)
        for _ in 1...5 {
            await #expect(throws: AccountService.wrongCredentials) {
                try await accounts.signUp(
                    email: "ada@example.com", password: "another one", timeZone: nil, address: "10.0.0.2", now: Self.now
                )
            }
        }
        // Those five failures count against signing in from that address.
        let locked = await #expect(throws: MorningProofError.self) {
            try await accounts.logIn(
                email: "ada@example.com", password: "correct horse", address: "10.0.0.2", now: Self.now)
        }
        #expect(locked?.code == "too_many_attempts")
        for n in 1...3 {
            _ = try await accounts.signUp(
                email: "user\(n)@example.com", password: "correct horse", timeZone: nil, address: "10.0.0.1",
                now: Self.now)
        }
        // Five sign-ups from 10.0.0.1 so far (10.0.0.2's are its own); five more reach its 10 an hour.
        for n in 4...8 {
            _ = try await accounts.signUp(
                email: "user\(n)@example.com", password: "correct horse", timeZone: nil, address: "10.0.0.1",
                now: Self.now)
        }
        do {
            _ = try await accounts.signUp(
                email: "late@example.com", password: "correct horse", timeZone: nil, address: "10.0.0.1",
                now: Self.now.addingTimeInterval(60))
            Issue.record("signed up past the limit")
        } catch let error as MorningProofError {
            #expect(error.kind == .tooManyRequests(retryAfter: 3540))
        }
        #expect(try await database.accountID(email: "late@example.com") == nil)
        _ = try await accounts.signUp(
            email: "late@example.com", password: "correct horse", timeZone: nil, address: "10.0.0.3", now: Self.now)
    }

    @Test func onlyOneDailyUpdateADay() async throws {
        let issued = try await accounts.signUp(
            email: "ada@example.com", password: "correct horse", timeZone: "Asia/Tokyo", address: "192.0.2.1",
            now: Self.now
        ).token
        let token = PresentedToken(issued.token, at: Self.now)
        let service = DailyUpdateService(database: database)
        let update = try await service.record(metrics: ["mood": .number(4)], score: nil, token: token, now: Self.now)
        #expect(update.day == LocalDay("2026-03-10"))
        #expect(update.zone == "Asia/Tokyo")
        await #expect(
            throws: MorningProofError(.conflict, code: "already_completed", "Daily check-in already completed")
        ) {
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
        // A name must show something, as a habit's must: the same rule (`UserText.isBlank`).
        for blank in ["\u{200B}", " \u{2060}\u{FEFF} ".replacingOccurrences(of: "\u{FEFF}", with: ""), "\u{3164}"] {
            await #expect(throws: MorningProofError.usage("the token needs a name, such as \"backup script\"")) {
                try await tokens.createToken(email: nil, name: blank, now: Self.now)
            }
        }
        await #expect(throws: MorningProofError.self) {
            try await tokens.createToken(email: nil, name: "tag\u{E0041}", now: Self.now)
        }
        try await tokens.revokeToken(id: issued.record.id)
        #expect(try await tokens.authenticate(PresentedToken(issued.token, at: Self.now)) == nil)
        let gone = await #expect(throws: MorningProofError.self) { try await tokens.revokeToken(id: issued.record.id) }
        #expect(gone?.kind == .notFound && gone?.code == "not_found")
    }
}
