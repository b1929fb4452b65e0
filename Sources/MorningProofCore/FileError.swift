/// Why a file could not be used, in the words of the layer that read it: a layer declares its own
/// `Code` (PhotoVerification's `PhotoError`, HealthMetrics' `MetricFileError`), and front ends decide
/// what each code means to a person (the CLI: an exit code; the server: a status).
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
