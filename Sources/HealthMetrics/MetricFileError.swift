import Foundation
import MorningProofCore

/// Why a metrics file could not be read at all (a line that cannot be read is a warning, not an
/// error), with the file concerned.
public typealias MetricFileError = FileError<MetricFileProblem>

/// What went wrong with a metrics file.
public enum MetricFileProblem: FileProblem {
    /// The file does not exist.
    case noSuchFile
    /// The file exists but cannot be opened or read.
    case unreadable
    /// The file is not one of the formats MorningProof reads, or is broken beyond reading.
    case notMetrics

    /// The error kind (exit code, HTTP status) of a metrics file that could not be read, for every
    /// front end: missing 66, unreadable 74, not metrics 65 (400 on the server).
    public var errorKind: MorningProofError.Kind {
        switch self {
        case .noSuchFile: .noInput
        case .unreadable: .ioError
        case .notMetrics: .dataError
        }
    }
}

extension FileError where Code == MetricFileProblem {
    /// The file could not be opened: `noSuchFile` when it is not there, `unreadable` otherwise.
    static func cannotOpen(_ path: String, errno number: Int32, _ message: String) -> MetricFileError {
        let reason = String(cString: strerror(number))
        return MetricFileError(
            number == ENOENT || number == ENOTDIR ? .noSuchFile : .unreadable, path: path, message, cause: reason)
    }
}
