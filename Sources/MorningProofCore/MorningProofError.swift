/// An error a person can act on: what kind of failure it is, and a message that names the inputs
/// it concerns. It is the one vocabulary both front ends read: each maps a kind to one exit code
/// (the CLI, with its options) or one HTTP status (the server, with JSON field names), in one place.
/// A lower layer's own error (a store's, a photo's, a metrics file's) says itself in it through
/// `MorningProofErrorConvertible`.
public struct MorningProofError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A negative verdict (bed not made, gate closed, proof refused).
        case negative
        /// The command or request was used wrongly (unknown habit, bad date, bad zone).
        case usage
        /// The input data is bad (a broken photo, a file that is not a metrics file).
        case dataError
        /// An input file is missing.
        case noInput
        /// The database or a file could not be read or written.
        case ioError
        /// The database stayed busy past its timeout.
        case busy
        /// No valid credentials (a wrong password, an unknown or expired token).
        case unauthorized
        /// Nothing of this account by that id, or a prerequisite missing (no time zone yet, no
        /// check-in set up).
        case notFound
        /// The thing exists already (an email taken, today's update done).
        case conflict
        /// A rule refuses what was asked (a day in the future, or before the habit existed).
        case refused
        /// Too many attempts; try again after `retryAfter` seconds.
        case tooManyRequests(retryAfter: Int)
        /// The credentials are right but the account may not act: the operator disabled it.
        case forbidden
    }

    public let kind: Kind
    /// What went wrong, with the inputs and next steps it names left for a front end to word.
    public let text: ErrorText
    /// A stable word for programs (`email_taken`, `already_completed`), where the error has one;
    /// nil: a front end uses its kind's own.
    public let code: String?

    public init(_ kind: Kind, code: String? = nil, _ text: ErrorText) {
        self.kind = kind
        self.code = code
        self.text = text
    }

    public init(_ kind: Kind, code: String? = nil, _ message: String) {
        self.init(kind, code: code, ErrorText(stringLiteral: message))
    }

    /// The message in neutral words (inputs by their plain names).
    public var message: String { text.description }
    public var description: String { message }

    public static func usage(_ text: ErrorText) -> MorningProofError { .init(.usage, text) }
    public static func dataError(_ message: String) -> MorningProofError { .init(.dataError, message) }
    public static func noInput(_ message: String) -> MorningProofError { .init(.noInput, message) }
    public static func ioError(_ message: String) -> MorningProofError { .init(.ioError, message) }
}

/// A lower layer's error (a store's, a photo's, a metrics file's) that keeps its own type for its
/// callers and says itself, for the front ends, as a `MorningProofError`: once, in its own module.
public protocol MorningProofErrorConvertible: Error {
    /// The same error in MorningProof's vocabulary: its kind, message and stable code.
    var morningProofError: MorningProofError { get }
}

extension MorningProofError {
    /// `error` in MorningProof's vocabulary: itself, or a lower layer's error converted; nil for
    /// any other (a library's or the system's own), which each front end answers on its own.
    public init?(_ error: any Error) {
        switch error {
        case let error as MorningProofError: self = error
        case let error as any MorningProofErrorConvertible: self = error.morningProofError
        default: return nil
        }
    }
}
