/// An error a person can act on, with the sysexits code the command exits with.
public struct MorningProofError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Int32, Sendable {
        /// 1: a negative verdict (bed not made, gate closed, proof refused).
        case negative = 1
        /// 64: the command was used wrongly (unknown habit, bad date, bad zone).
        case usage = 64
        /// 65: the input data is bad (a broken photo, a file that is not a metrics file).
        case dataError = 65
        /// 66: an input file is missing.
        case noInput = 66
        /// 74: the database or a file could not be read or written.
        case ioError = 74
        /// 75: the database stayed busy past its timeout.
        case busy = 75
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var exitCode: Int32 { kind.rawValue }
    public var description: String { message }

    public static func usage(_ message: String) -> MorningProofError { .init(.usage, message) }
    public static func dataError(_ message: String) -> MorningProofError { .init(.dataError, message) }
    public static func noInput(_ message: String) -> MorningProofError { .init(.noInput, message) }
    public static func ioError(_ message: String) -> MorningProofError { .init(.ioError, message) }
}
