import Foundation

/// A person the server serves, with the clock that decides their "today".
/// Account 1 is the owner: the CLI's data, whose zone and day start are the CLI's settings.
public struct AccountProfile: Sendable, Equatable {
    /// The owner account: the data the CLI works on.
    public static let ownerID: Int64 = 1

    public var id: Int64
    /// Nil for the owner until one is set (the CLI needs none).
    public var email: String?
    /// An IANA name, or nil until the person says where they are (onboarding).
    public var timeZone: String?
    /// Minutes after local midnight at which a day begins (0 to 720).
    public var dayStart: Int
    /// The first day of a calendar week, 1 (Monday) to 7 (Sunday).
    public var weekStart: Int

    public init(id: Int64, email: String?, timeZone: String?, dayStart: Int = 0, weekStart: Int = 1) {
        self.id = id
        self.email = email
        self.timeZone = timeZone
        self.dayStart = dayStart
        self.weekStart = weekStart
    }

    /// The clock that decides this account's days; nil while it has no time zone.
    public var clock: DayClock? { timeZone.flatMap { DayClock(zoneIdentifier: $0, dayStart: dayStart) } }
}

/// What a sign-up may hold: an email address and a password a person can type.
/// Lengths count Unicode scalars, as JSON Schema's `maxLength` does.
public enum AccountRules {
    public static let emailMaxLength = 254
    public static let passwordMinLength = 8
    public static let passwordMaxLength = 1_024

    /// Nil when `email` can be an account's address, else what is wrong with it. Deliberately
    /// loose: one `@` with something before it, a dot inside the domain, no spaces or controls.
    public static func emailProblem(_ email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.unicodeScalars.count <= emailMaxLength, parts.count == 2, !parts[0].isEmpty,
            parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            !email.unicodeScalars.contains(where: { $0.properties.isWhitespace || UserText.isRefused($0) })
        else { return "\"\(email)\" is not an email address such as ada@example.com" }
        return nil
    }

    /// Nil when the password can be used, else what is wrong with it.
    public static func passwordProblem(_ password: String) -> String? {
        let length = password.unicodeScalars.count
        if length < passwordMinLength { return "the password needs at least \(passwordMinLength) characters" }
        if length > passwordMaxLength { return "the password can have at most \(passwordMaxLength) characters" }
        return nil
    }
}
