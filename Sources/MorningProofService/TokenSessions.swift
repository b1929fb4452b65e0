import Foundation
import MorningProofCore
import MorningProofStoreContract

/// The hours in which this process has recorded each token's use, so that a token is written at
/// most once an hour per server, whatever the number of requests. Bounded: past `capacity` it
/// forgets, which costs one more write per token, never a wrong answer.
public final class TokenUseHours: Sendable {
    static let capacity = 10_000
    private let recorded = Locked<[String: Date]>([:])

    public init() {}

    /// True when the use of `hash` in `hour` still needs writing (and remembers it as written).
    func needsRecording(_ hash: String, hour: Date) -> Bool {
        recorded.withLock { recorded in
            if let last = recorded[hash], last >= hour { return false }
            if recorded.count >= Self.capacity { recorded.removeAll() }
            recorded[hash] = hour
            return true
        }
    }

    /// The start of the UTC hour `instant` falls in: a token's last use is kept to the hour.
    public static func hour(of instant: Date) -> Date {
        Date(timeIntervalSince1970: (instant.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
    }
}

/// A token as the person's list of sessions shows it: the stored token, its device and last use,
/// and whether it is the one asking.
public struct TokenSession: Sendable {
    public var token: APIToken
    public var use: TokenUse
}

extension TokenService {
    /// The account's tokens, oldest first, each with its device and last hour of use; the token
    /// `current` presents is marked.
    public func sessions(accountID: Int64, current: PresentedToken?) async throws -> [TokenSession] {
        let uses = try await database.tokenUses(accountID: accountID, currentHash: current?.hash)
        return try await tokens(accountID: accountID).map { token in
            TokenSession(token: token, use: uses[token.id] ?? TokenUse(device: nil, lastUsedAt: nil, current: false))
        }
    }

    /// Revokes every token of the account but the one presented ("sign out everywhere else"); how many went.
    public func signOutOthers(accountID: Int64, current: PresentedToken) async throws -> Int {
        guard let hash = current.hash else { throw Self.invalidToken }
        return try await database.signOut(accountID: accountID, .allBut(tokenHash: hash))
    }

    /// Notes that `hash` was used at `instant`: written at most once an hour per token and server.
    /// A failure to write it fails nothing: it is a hint for the list of sessions.
    func recordUse(_ hash: String, at instant: Date) async {
        let hour = TokenUseHours.hour(of: instant)
        guard useHours.needsRecording(hash, hour: hour) else { return }
        try? await database.recordUse(tokenHash: hash, hour: hour)
    }

    /// Records the device a sign-in came from, named from its User-Agent; nothing when it names none.
    func recordDevice(of token: IssuedToken, userAgent: String?) async {
        guard let device = DeviceName.from(userAgent: userAgent) else { return }
        try? await database.recordDevice(tokenID: token.record.id, device: device)
    }

    /// What a request whose token signed nothing in gets: 403 `account_disabled` when the token is
    /// a disabled account's, else 401 `invalid_token`. Asked only on a refusal, so a valid token
    /// costs nothing more.
    public func refusal(for token: PresentedToken) async -> MorningProofError {
        guard let hash = token.hash, (try? await database.isOfDisabledAccount(tokenHash: hash, at: token.at)) == true
        else { return Self.invalidToken }
        return Self.accountDisabled
    }

    /// What a disabled account's token and sign-in get.
    public static let accountDisabled = MorningProofError(
        .forbidden, code: "account_disabled", "this account is disabled; ask the server's operator")
}
