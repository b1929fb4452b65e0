import Foundation
import MorningProofCore
import MorningProofStoreContract

/// A pairing code just made: shown once, valid until `expiresAt`.
public struct PairingCode: Sendable {
    /// Eight letters and digits, as `ABCD-EF23`.
    public var code: String
    public var expiresAt: Date
}

/// Connecting the browser extension or a phone: a full token asks for a one-time code (valid 10
/// minutes, stored only as a SHA-256, like a token), which the extension exchanges, once and
/// without a token, for a gate token (`TokenScope.gate`: the gate's answer and its unlock only).
///
/// The code waits among the account's tokens with the scope `pairing`, which opens no route: its
/// exchange deletes it, and the delete that finds it is the one that gets the gate token.
public struct GatePairingService: Sendable {
    public static let lifetime: TimeInterval = 10 * 60
    /// Exchanges one client address may try in 10 minutes.
    public static let attemptsPerAddress = 10
    /// Letters and digits a person reads without doubt (no 0/O, 1/I/L).
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    static let length = 8

    public let tokens: TokenService
    /// Exchanges tried per client address (this process's memory).
    let attempts: PairingAttempts

    public init(tokens: TokenService, attemptsPerAddress: Int = GatePairingService.attemptsPerAddress) {
        self.tokens = tokens
        attempts = PairingAttempts(limit: attemptsPerAddress)
    }

    /// A new code for the account, valid 10 minutes from `now` (the real time).
    public func createCode(accountID: Int64, now: Date) async throws -> PairingCode {
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<Self.length).map { _ in Self.alphabet.randomElement(using: &generator)! }
        let code = String(letters.prefix(4)) + "-" + String(letters.suffix(4))
        _ = try await tokens.database.insertToken(
            accountID: accountID, name: "pairing code", tokenHash: Self.hash(code), createdAt: now,
            expiresAt: now.addingTimeInterval(Self.lifetime), scope: .pairing)
        return PairingCode(code: code, expiresAt: now.addingTimeInterval(Self.lifetime))
    }

    /// Exchanges a code for a gate token named `name`: once, within its 10 minutes. Refused (422
    /// `invalid_pairing_code`) for a code that is unknown, used or expired; 429 past
    /// `attemptsPerAddress` tries from one client address (an IPv6 /64) in 10 minutes.
    public func pair(code: String, name: String?, address: String, now: Date) async throws -> IssuedToken {
        try attempts.count(ClientAddress.person(of: address), now: now)
        let name = try UserText.validate(
            name ?? "gate (paired)", field: "the token name", maxLength: TokenService.nameMaxLength)
        let refusal = MorningProofError(
            .refused, code: "invalid_pairing_code",
            "the pairing code is not valid (unknown, used or more than 10 minutes old): ask Settings for a new one")
        guard let normalized = Self.normalized(code) else { throw refusal }
        let hash = Self.hash(normalized)
        guard let account = try await tokens.database.account(tokenHash: hash, at: now, scopes: [.pairing]),
            try await tokens.database.revokeToken(hash: hash)
        else { throw refusal }
        return try await tokens.issue(
            accountID: account.id, name: UserText.isBlank(name) ? "gate (paired)" : name, now: now, lifetime: nil,
            scope: .gate)
    }

    /// `abcd ef23`, `ABCD-EF23` -> `ABCD-EF23`; nil for anything that cannot be a code.
    static func normalized(_ code: String) -> String? {
        let letters = code.uppercased().filter { $0 != "-" && $0 != " " }
        guard letters.count == length, letters.allSatisfy(alphabet.contains) else { return nil }
        return String(letters.prefix(4)) + "-" + String(letters.suffix(4))
    }

    static func hash(_ code: String) -> String { TokenSecret.hash("pairing:" + code) }
}

/// Pairing exchanges tried per client address in the last 10 minutes: a code has 31^8 values, and
/// this keeps anyone from trying more than a few of them while one is valid.
final class PairingAttempts: Sendable {
    static let window: TimeInterval = 10 * 60
    /// Past this many addresses, the oldest tries are forgotten first.
    static let capacity = 10_000
    let limit: Int
    private let tries = Locked<[String: [Date]]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Counts a try from `person`; 429 with the seconds until one is allowed again when over the limit.
    func count(_ person: String, now: Date) throws {
        let retryAfter: Int? = tries.withLock { tries in
            if tries.count >= Self.capacity {
                tries = tries.filter { $0.value.contains { now.timeIntervalSince($0) < Self.window } }
                if tries.count >= Self.capacity { tries.removeAll() }
            }
            let recent = (tries[person] ?? []).filter { now.timeIntervalSince($0) < Self.window }
            guard recent.count < limit else {
                tries[person] = recent
                return max(1, Int((Self.window - now.timeIntervalSince(recent[0])).rounded(.up)))
            }
            tries[person] = recent + [now]
            return nil
        }
        if let retryAfter {
            throw MorningProofError(
                .tooManyRequests(retryAfter: retryAfter), code: "too_many_pairing_attempts",
                "too many pairing codes tried from this address; try again in \(retryAfter) seconds")
        }
    }
}
