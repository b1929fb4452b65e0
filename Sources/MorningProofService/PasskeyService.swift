import Digest
import Foundation
import MorningProofCore
import MorningProofStoreContract
import WebAuthn

/// Passkeys (issue 41): adding one to a signed-in account, signing in with one (a session token,
/// as a password sign-in gives, under the same limits), listing and removing them. Every
/// ceremony signs a challenge sealed by the server's key (`PasskeyChallengeSeal`: nothing is stored
/// when it is issued, so asking for options costs no row), valid `challengeLifetime`, bound to its
/// purpose (and a registration's to its account), and answered once: an answer that checks out is
/// kept by its SHA-256 until the challenge expires.
public struct PasskeyService: Sendable {
    /// How long a challenge can be answered.
    public static let challengeLifetime: TimeInterval = 5 * 60
    /// Challenges one account may answer within `challengeLifetime` (sign-ins and registrations):
    /// the rows they keep are bounded per account.
    public static let answersPerAccount = 30
    /// Passkeys one account may hold (each is a row, and an excluded credential in every registration).
    public static let maxPerAccount = 20
    /// The longest passkey name, in characters.
    public static let nameMaxLength = 64

    let accounts: AccountService
    var database: any AccountStore { accounts.database }
    /// The server's key, once read from the database.
    private let key = Locked<[UInt8]?>(nil)

    public init(accounts: AccountService) {
        self.accounts = accounts
    }

    /// The options of `navigator.credentials.create` for the account (WebAuthn's JSON form):
    /// a discoverable credential required, user verification preferred, its passkeys excluded.
    public func registrationOptions(for account: AccountProfile, relyingParty: RelyingParty, now: Date)
        async throws -> PasskeyCreationOptions
    {
        let existing = try await database.passkeys(accountID: account.id)
        guard existing.count < Self.maxPerAccount else { throw Self.tooMany }
        let challenge = try await issueChallenge(.registration, accountID: account.id, now: now)
        let name = account.email ?? "account \(account.id)"
        return PasskeyCreationOptions(
            challenge: challenge, rp: .init(id: relyingParty.id, name: "MorningProof"),
            user: .init(id: Base64URL.encode(Self.userHandle(of: account.id)), name: name, displayName: name),
            pubKeyCredParams: COSEPublicKey.algorithms.map { .init(type: "public-key", alg: $0) },
            timeout: Int(Self.challengeLifetime * 1000), attestation: "none",
            authenticatorSelection: .init(
                residentKey: "required", requireResidentKey: true, userVerification: "preferred"),
            excludeCredentials: existing.map { .init(type: "public-key", id: $0.credentialID) })
    }

    /// Checks a registration (`RelyingParty.register`) against a challenge issued to this account,
    /// and stores the passkey under `name` (else the device's name from `userAgent`, else "Passkey").
    public func finishRegistration(
        for account: AccountProfile, relyingParty: RelyingParty, clientDataJSON: [UInt8], attestationObject: [UInt8],
        name: String?, userAgent: String?, now: Date
    ) async throws -> StoredPasskey {
        let given = try name.map { try UserText.validate($0, field: "the passkey name", maxLength: Self.nameMaxLength) }
        let registration: RelyingParty.Registration
        do {
            registration = try relyingParty.register(
                clientDataJSON: clientDataJSON, attestationObject: attestationObject)
        } catch let error as WebAuthnError {
            throw error.morningProofError
        }
        let stale = MorningProofError(.usage, code: "passkey_refused", Self.staleChallenge)
        let challenge = registration.clientData.challenge
        guard
            let expiry = try await seal().open(challenge, .registration, accountID: account.id, now: now)
        else { throw stale }
        guard try await database.passkeys(accountID: account.id).count < Self.maxPerAccount else { throw Self.tooMany }
        try await spend(challenge, .registration, accountID: account.id, expiry: expiry, now: now, refusal: stale)
        let label = given.flatMap { $0.isEmpty ? nil : $0 } ?? DeviceName.from(userAgent: userAgent) ?? "Passkey"
        guard
            let stored = try await database.addPasskey(
                NewPasskey(
                    accountID: account.id, credentialID: Base64URL.encode(registration.credentialID),
                    publicKey: Data(registration.publicKey), signCount: Int64(registration.signCount), name: label,
                    createdAt: now))
        else {
            throw MorningProofError(.conflict, code: "passkey_exists", "this passkey is registered already")
        }
        return stored
    }

    /// The options of `navigator.credentials.get`: no credentials listed, so the browser offers
    /// the discoverable passkeys it holds for this site.
    public func authenticationOptions(relyingParty: RelyingParty, now: Date) async throws -> PasskeyRequestOptions {
        let challenge = try await issueChallenge(.authentication, accountID: nil, now: now)
        return PasskeyRequestOptions(
            challenge: challenge, rpId: relyingParty.id, timeout: Int(Self.challengeLifetime * 1000),
            userVerification: "preferred", allowCredentials: [])
    }

    /// What a sign-in with a passkey presents: the credential's id and the authenticator's answer.
    public struct Assertion: Sendable {
        public var credentialID: String
        public var clientDataJSON: [UInt8]
        public var authenticatorData: [UInt8]
        public var signature: [UInt8]
        public var userHandle: [UInt8]?

        public init(
            credentialID: String, clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
            userHandle: [UInt8]?
        ) {
            self.credentialID = credentialID
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
        }
    }

    /// Signs in with a passkey: a session token as `AccountService.logIn` gives. Each attempt is
    /// counted by the sign-in limits (per address, and per credential as if it were an email) and
    /// given back when it succeeds; a refusal is 401 `passkey_refused`, a disabled account 403.
    public func signIn(
        with assertion: Assertion, relyingParty: RelyingParty, address: String, now: Date, userAgent: String?
    ) async throws -> IssuedToken {
        let reservation = try await accounts.throttle.reserveSignIn(
            email: "passkey " + String(assertion.credentialID.prefix(64)), address: address, now: now)
        let passkey: StoredPasskey
        do {
            passkey = try await verify(assertion, relyingParty: relyingParty, now: now)
        } catch let error as MorningProofError {
            throw error
        } catch let error as WebAuthnError {
            throw MorningProofError(.unauthorized, code: "passkey_refused", "passkey refused: \(error.message)")
        } catch {
            // Never checked (the database is busy): not a failure.
            try? await accounts.throttle.giveBack(reservation)
            throw error
        }
        try await accounts.throttle.signedIn(reservation)
        if try await database.isDisabled(accountID: passkey.accountID) == true { throw TokenService.accountDisabled }
        let token = try await accounts.tokens.issue(
            accountID: passkey.accountID, name: "passkey", now: now, lifetime: AccountService.sessionLifetime)
        await accounts.tokens.recordDevice(of: token, userAgent: userAgent)
        return token
    }

    private func verify(_ assertion: Assertion, relyingParty: RelyingParty, now: Date) async throws -> StoredPasskey {
        let clientData = try relyingParty.assertionClientData(assertion.clientDataJSON)
        guard
            let expiry = try await seal().open(clientData.challenge, .authentication, accountID: nil, now: now)
        else { throw Self.refused(Self.staleChallenge) }
        guard Base64URL.decode(assertion.credentialID) != nil,
            let passkey = try await database.passkey(credentialID: assertion.credentialID)
        else { throw Self.refused("this passkey is not registered here (removed?)") }
        if let handle = assertion.userHandle, handle != Self.userHandle(of: passkey.accountID) {
            throw Self.refused("the passkey's user is not its account")
        }
        let checked = try relyingParty.authenticate(
            clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData,
            signature: assertion.signature, publicKey: Array(passkey.publicKey),
            storedSignCount: UInt32(clamping: passkey.signCount))
        // Only now, with the signature checked, is the answer kept: a counter of 0 (synced passkeys
        // keep it so) does not refuse a replay, the used challenge does.
        try await spend(
            clientData.challenge, .authentication, accountID: passkey.accountID, expiry: expiry, now: now,
            refusal: Self.refused(Self.staleChallenge))
        guard
            try await database.recordPasskeyUse(
                id: passkey.id, expected: passkey.signCount, signCount: Int64(checked.signCount), at: now)
        else { throw Self.refused("the passkey was used at the same moment by another sign-in") }
        return passkey
    }

    /// The account's passkeys, oldest first.
    public func passkeys(of accountID: Int64) async throws -> [StoredPasskey] {
        try await database.passkeys(accountID: accountID)
    }

    /// Removes one of the account's passkeys: 404 `not_found` for an id it does not hold.
    public func remove(id: Int64, accountID: Int64) async throws {
        guard try await database.deletePasskey(id: id, accountID: accountID) else {
            throw MorningProofError(.notFound, code: "not_found", "no passkey \(id) in this account")
        }
    }

    /// A new challenge, sealed and stored nowhere; its base64url for the browser.
    private func issueChallenge(_ purpose: PasskeyChallenge.Purpose, accountID: Int64?, now: Date) async throws
        -> String
    {
        Base64URL.encode(
            try await seal().issue(
                purpose, accountID: accountID, expiresAt: now.addingTimeInterval(Self.challengeLifetime))
        )
    }

    /// Keeps an answered challenge until it expires: `refusal` when it was answered before, 429 when
    /// the account answered `answersPerAccount` in the lifetime of one.
    private func spend(
        _ challenge: [UInt8], _ purpose: PasskeyChallenge.Purpose, accountID: Int64, expiry: Date, now: Date,
        refusal: MorningProofError
    ) async throws {
        let answered = PasskeyChallenge(
            hash: Self.hash(challenge), purpose: purpose, accountID: accountID, createdAt: now, expiresAt: expiry)
        switch try await database.spendPasskeyChallenge(answered, perAccountLimit: Self.answersPerAccount) {
        case .spent: return
        case .used: throw refusal
        case .tooMany:
            throw MorningProofError(
                .tooManyRequests(retryAfter: Int(Self.challengeLifetime)), code: "too_many_passkey_attempts",
                "this account used passkeys \(Self.answersPerAccount) times in 5 minutes; try again in a few minutes")
        }
    }

    /// The seal under the server's key: read (or made and stored) once, then kept.
    private func seal() async throws -> PasskeyChallengeSeal {
        if let known = key.withLock({ $0 }) { return PasskeyChallengeSeal(key: known) }
        var generator = SystemRandomNumberGenerator()
        let candidate = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let stored = Array(try await database.passkeyChallengeKey(orStore: candidate))
        key.withLock { $0 = stored }
        return PasskeyChallengeSeal(key: stored)
    }

    static func hash(_ challenge: [UInt8]) -> String { SHA256Digest.hex(Data(challenge)) }

    /// WebAuthn's user handle of an account: its id, 8 bytes big-endian (no email or name in it).
    static func userHandle(of accountID: Int64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: accountID >> (56 - 8 * $0)) }
    }

    static let staleChallenge = "the challenge is unknown, used or expired; start again"
    static let tooMany = MorningProofError(
        .refused, code: "too_many_passkeys", "an account holds at most \(maxPerAccount) passkeys; remove one first")

    static func refused(_ message: String) -> MorningProofError {
        MorningProofError(.unauthorized, code: "passkey_refused", "passkey refused: \(message)")
    }
}
