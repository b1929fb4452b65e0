/// An error a person can act on: what kind of failure it is, and a message that names the inputs
/// it concerns. Each front end words it (the CLI with its options and an exit code, the server with
/// JSON field names and an HTTP status).
public struct MorningProofError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
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
    }

    public let kind: Kind
    /// What went wrong, with the inputs and next steps it names left for a front end to word.
    public let text: ErrorText

    public init(_ kind: Kind, _ text: ErrorText) {
        self.kind = kind
        self.text = text
    }

    public init(_ kind: Kind, _ message: String) {
        self.init(kind, ErrorText(stringLiteral: message))
    }

    /// The message in neutral words (inputs by their plain names).
    public var message: String { text.description }
    public var description: String { message }

    public static func usage(_ text: ErrorText) -> MorningProofError { .init(.usage, text) }
    public static func dataError(_ message: String) -> MorningProofError { .init(.dataError, message) }
    public static func noInput(_ message: String) -> MorningProofError { .init(.noInput, message) }
    public static func ioError(_ message: String) -> MorningProofError { .init(.ioError, message) }
}
