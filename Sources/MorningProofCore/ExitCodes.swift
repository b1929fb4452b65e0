extension MorningProofError.Kind {
    /// The sysexits code `morningproof`, `morningproof-server` and `morningproof-calibrate` exit with
    /// for this kind of error (docs/cli.md's table). The libraries never exit; only the programs read it.
    public var exitCode: Int32 {
        switch self {
        case .negative: 1
        case .usage: 64
        case .dataError: 65
        case .noInput: 66
        case .ioError: 74
        case .busy: 75
        // What the server answers with 401, 404, 409, 422 or 429 (a token not valid, a prerequisite
        // missing, a name taken, a future day) is, for a command, a usage error.
        case .unauthorized, .forbidden, .notFound, .conflict, .refused, .tooManyRequests: 64
        }
    }
}
