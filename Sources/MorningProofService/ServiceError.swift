/// A use case refused, in terms every front end can map: the server to an HTTP status, a command
/// to a message and an exit code. Bad input is a `MorningProofError.usage`; this is for the rest.
public struct ServiceError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No valid credentials (a wrong password, an unknown or expired token).
        case unauthorized
        /// Nothing of this account by that id, or a prerequisite missing (no time zone yet).
        case notFound
        /// The thing exists already (an email taken, today's update done).
        case conflict
        /// A rule refuses what was asked (a day in the future, or before the habit existed).
        case refused
        /// Too many failed attempts; try again after `retryAfter` seconds.
        case tooManyRequests(retryAfter: Int)
    }

    public let kind: Kind
    /// A stable word for programs: `email_taken`, `already_completed`.
    public let code: String
    /// A sentence for people.
    public let message: String

    public init(_ kind: Kind, code: String, _ message: String) {
        self.kind = kind
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
