import Foundation
import MorningProofCore

/// What the store refuses, cannot find or cannot reach, with the value or file concerned. Front ends
/// read it as the `MorningProofError` it converts to (`morningProofError`), like every other layer's.
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
        /// The database stayed busy (another process writing) past its timeout (`value` is the file).
        case busy
        /// The database (or a copy of it) cannot be opened, read or written, is damaged, is another
        /// program's, or is from a newer MorningProof (`value` is the file).
        case unavailable
        /// A file given to read from does not exist (`value` is the file).
        case missingFile
        /// A file given to read from is not what it should be: not a whole MorningProof database,
        /// not a Loop Habit Tracker backup (`value` is the file).
        case badFile
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

    package static func unavailable(_ path: String, _ message: String) -> StoreError {
        StoreError(.unavailable, value: path, message)
    }

    /// A write to `path` that its file system had no room for (SQLite's "database or disk is full", or
    /// an I/O error on a disk found full): said as such, never as damage.
    package static func noSpace(_ path: String, _ consequence: String = "") -> StoreError {
        unavailable(path, "no space left on device writing \(path)\(consequence)")
    }

    /// A write that names a row deleted in the meantime (a habit, or the whole account, removed by a
    /// request that committed first): the database's foreign key refused it. Not found, as the row
    /// is; never "unavailable", which would tell the client to try again.
    package static func removedMeanwhile(_ path: String) -> StoreError {
        StoreError(
            .notFound, value: path,
            "what this change belongs to was removed at the same moment (the habit or the account is gone)")
    }

    /// The same error, its sentence followed by `consequence` ("; the database was left as it was").
    package func adding(_ consequence: String) -> StoreError { StoreError(code, value: value, message + consequence) }
}

extension StoreError: MorningProofErrorConvertible {
    /// A name or value the person gave that does not fit what is stored is theirs to change (not
    /// found, taken, ambiguous, invalid); a database busy or out of reach, or a file given to read
    /// from, is of the kind that says so.
    public var morningProofError: MorningProofError {
        switch code {
        case .notFound:
            MorningProofError(
                .notFound, isNoHabitsYet ? "\(message)\(hint: .addHabit)" : ErrorText(stringLiteral: message))
        case .conflict: MorningProofError(.conflict, message)
        case .ambiguous, .invalid: MorningProofError(.usage, message)
        case .busy: MorningProofError(.busy, message)
        case .unavailable: MorningProofError(.ioError, message)
        case .missingFile: MorningProofError(.noInput, message)
        case .badFile: MorningProofError(.dataError, message)
        }
    }
}
