import Foundation

/// What the store refuses or cannot find, with the value concerned. Front ends decide what it means
/// to a person (the CLI: exit 64; the server: 404 or 409).
public struct StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// Nothing stored matches (`value` is what was looked for).
        case notFound
        /// More than one stored row matches (`value` is what was looked for).
        case ambiguous
        /// The value is already taken by another row (a habit name, in any case).
        case conflict
        /// The value cannot be stored (an empty name).
        case invalid
    }

    public var code: Code
    /// The name or value concerned.
    public var value: String
    /// A sentence a person can act on.
    public var message: String

    public init(_ code: Code, value: String, _ message: String) {
        self.code = code
        self.value = value
        self.message = message
    }

    public var description: String { message }
}
