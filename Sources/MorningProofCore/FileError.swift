/// Why a file could not be used, in the words of the layer that read it: a layer declares its own
/// `Code` (PhotoVerification's `PhotoError`, HealthMetrics' `MetricFileError`), and says what each
/// code means in MorningProof's vocabulary (`FileProblem`); front ends read that, never the code.
public struct FileError<Code: Sendable & Equatable>: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Code
    /// The file as the person gave it.
    public var path: String
    /// A sentence a person can act on, starting with the file.
    public var message: String
    /// What the library or the system said, when one of them did.
    public var cause: String?

    public init(_ code: Code, path: String, _ message: String, cause: String? = nil) {
        self.code = code
        self.path = path
        self.message = message
        self.cause = cause
    }

    public var description: String { message }
}

/// What went wrong with a file, in the words of the layer that read it (`PhotoProblem`,
/// `MetricFileProblem`), with what it means in MorningProof's vocabulary: every `FileError` is
/// translated by the one conversion below, from these three answers.
public protocol FileProblem: Sendable, Equatable {
    /// The kind of error (an exit code, an HTTP status).
    var errorKind: MorningProofError.Kind { get }
    /// A stable word for programs (`bad_image`); nil: the kind's own.
    var errorCode: String? { get }
    /// The next step the message suggests, if any (a front end words it).
    var errorHint: ErrorHint? { get }
}

extension FileProblem {
    public var errorCode: String? { nil }
    public var errorHint: ErrorHint? { nil }
}

extension FileError: MorningProofErrorConvertible where Code: FileProblem {
    /// The file's message, of its code's kind, with its code's stable word and next step.
    public var morningProofError: MorningProofError {
        let text: ErrorText = code.errorHint.map { "\(message)\(hint: $0)" } ?? ErrorText(stringLiteral: message)
        return MorningProofError(code.errorKind, code: code.errorCode, text)
    }
}
