import Foundation
import MorningProofCore
import MorningProofStoreContract

/// How many sign-ins and sign-ups are allowed, and the one place where that rule lives.
///
/// Each limit counts attempts under a key within a sliding window; past it, attempts under that key
/// are refused (429 with `Retry-After`: until the oldest counted attempt leaves the window), right
/// password or not. The keys:
/// - one email from one address (`perDevice`, 5 in 15 minutes): a guesser at one address gets 5;
/// - one email from anywhere (`perEmail`, 20): guessers spread over addresses; the owner's own
///   device has its own budget of 5 besides, so other addresses' guesses lock it out 4 times slower
///   than a single limit of 5 did, and only while they keep guessing;
/// - one address, any email (`perAddress`, 20): one guesser trying many accounts;
/// - sign-ups from one address (`signUpsPerAddress`, 10 in an hour).
/// An address is counted as `ClientAddress.person`: an IPv6 client by its /64, since one /64 is one
/// person who can pick any address in it.
/// A sliding window rather than an exponential delay: the guesser, not the owner, would drive the
/// delay up, and a window gives a `Retry-After` that is true. Nothing signed in with a token ever
/// consults these limits: only signing in and signing up with a password do.
public struct SignInLimits: Sendable {
    public var perDevice: Int
    public var perEmail: Int
    public var perAddress: Int
    public var window: TimeInterval
    public var signUpsPerAddress: Int
    public var signUpWindow: TimeInterval

    public init(
        perDevice: Int = 5, perEmail: Int = 20, perAddress: Int = 20, window: TimeInterval = 15 * 60,
        signUpsPerAddress: Int = 10, signUpWindow: TimeInterval = 60 * 60
    ) {
        self.perDevice = perDevice
        self.perEmail = perEmail
        self.perAddress = perAddress
        self.window = window
        self.signUpsPerAddress = signUpsPerAddress
        self.signUpWindow = signUpWindow
    }

    /// Whole seconds to wait, or nil when one more attempt may be counted under `limits` (each key's
    /// count and window) given the attempts already counted (`recent`, any order).
    public static func retryAfter(
        _ limits: [String: (count: Int, window: TimeInterval)], recent: [String: [Date]], now: Date
    ) -> Int? {
        limits.compactMap { key, limit -> Int? in
            let times = (recent[key] ?? []).filter { now.timeIntervalSince($0) < limit.window }.sorted()
            guard times.count >= limit.count, let oldest = times.dropLast(limit.count - 1).last else { return nil }
            return max(1, Int(oldest.addingTimeInterval(limit.window).timeIntervalSince(now).rounded(.up)))
        }.max()
    }
}

/// Counts sign-in and sign-up attempts before any password is checked, in a `SignInFailureStore`:
/// memory for one server (a restart forgets them), the shared database for servers on PostgreSQL.
/// Counting first makes the limit hold under concurrency: 40 guesses sent at once are counted one
/// after the other, and only as many as the limit allows go on to the password check.
public struct LoginThrottle: Sendable {
    public let limits: SignInLimits
    let attempts: any SignInFailureStore

    public init(failures: any SignInFailureStore = MemorySignInFailures(), limits: SignInLimits = SignInLimits()) {
        self.attempts = failures
        self.limits = limits
    }

    /// A sign-in attempt counted before its password is checked; `signedIn` gives it back.
    public struct Reservation: Sendable {
        let id: String
        let keys: [String]
        let deviceKey: String
    }

    /// Counts a sign-in attempt for `email` from `address`, or throws 429 (`too_many_attempts`).
    public func reserveSignIn(email: String, address: String, now: Date) async throws -> Reservation {
        let email = email.lowercased()
        let address = ClientAddress.person(of: address)
        let device = "device \(address) \(email)"
        let keys: [String: (count: Int, window: TimeInterval)] = [
            device: (limits.perDevice, limits.window), "email \(email)": (limits.perEmail, limits.window),
            "address \(address)": (limits.perAddress, limits.window),
        ]
        let id = try await reserve(keys, now: now, refusal: "too many failed sign-ins")
        return Reservation(id: id, keys: keys.keys.sorted(), deviceKey: device)
    }

    /// A success: the attempt is given back, and the device's failures are forgotten (it knows the
    /// password). Failures from elsewhere stay counted against the email.
    public func signedIn(_ reservation: Reservation) async throws {
        try await giveBack(reservation)
        try await attempts.clearSignInAttempts(key: reservation.deviceKey)
    }

    /// An attempt whose password was never checked (the server was busy): not counted.
    public func giveBack(_ reservation: Reservation) async throws {
        try await attempts.releaseSignInAttempt(reservation.id, keys: reservation.keys)
    }

    /// Counts a sign-up from `address`, or throws 429 (`too_many_attempts`). Kept whatever the outcome.
    public func reserveSignUp(address: String, now: Date) async throws {
        _ = try await reserve(
            ["sign-up \(ClientAddress.person(of: address))": (limits.signUpsPerAddress, limits.signUpWindow)], now: now,
            refusal: "too many sign-ups from this address")
    }

    private func reserve(
        _ keys: [String: (count: Int, window: TimeInterval)], now: Date, refusal: String
    ) async throws -> String {
        let id = UUID().uuidString
        // Attempts older than every window are forgotten, whatever their key.
        let since = now.addingTimeInterval(-max(limits.window, limits.signUpWindow))
        let wait = try await attempts.reserveSignInAttempt(id, keys: keys.keys.sorted(), at: now, since: since) {
            recent in SignInLimits.retryAfter(keys, recent: recent, now: now)
        }
        if let wait {
            throw MorningProofError(
                .tooManyRequests(retryAfter: wait), code: "too_many_attempts",
                "\(refusal); try again in \(wait) seconds")
        }
        return id
    }
}

/// The attempts of one server process, in memory, counted under one lock; bounded, since keys whose
/// attempts have all left the longest window are dropped once there are many.
public final class MemorySignInFailures: SignInFailureStore {
    private let attempts = Locked([String: [(id: String, at: Date)]]())

    public init() {}

    public func reserveSignInAttempt(
        _ id: String, keys: [String], at instant: Date, since: Date,
        decide: @escaping @Sendable ([String: [Date]]) -> Int?
    ) -> Int? {
        attempts.withLock { attempts in
            let recent = keys.reduce(into: [String: [Date]]()) { found, key in
                attempts[key]?.removeAll { $0.at < since }
                if let times = attempts[key]?.map(\.at), !times.isEmpty { found[key] = times }
            }
            if let wait = decide(recent) { return wait }
            for key in keys { attempts[key, default: []].append((id, instant)) }
            if attempts.count > 10_000 { attempts = attempts.filter { $0.value.contains { $0.at >= since } } }
            return nil
        }
    }

    public func releaseSignInAttempt(_ id: String, keys: [String]) {
        attempts.withLock { attempts in
            for key in keys { attempts[key]?.removeAll { $0.id == id } }
        }
    }

    public func clearSignInAttempts(key: String) {
        _ = attempts.withLock { $0.removeValue(forKey: key) }
    }
}
