import MorningProofCore

extension MorningProofError.Kind {
    /// The sysexits code `morningproof` and `morningproof-server` exit with for this kind of error
    /// (docs/cli.md's table). The libraries never exit; only the two programs read it.
    public var exitCode: Int32 {
        switch self {
        case .negative: 1
        case .usage: 64
        case .dataError: 65
        case .noInput: 66
        case .ioError: 74
        case .busy: 75
        }
    }
}
