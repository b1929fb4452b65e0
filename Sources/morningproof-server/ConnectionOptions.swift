import ArgumentParser
import Logging
import MorningProofServer

/// `serve`'s timeouts of each connection state and its caps on open connections.
struct ConnectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Seconds a client has to send a request's head (line and headers).", valueName: "seconds"))
    var headTimeout = 10.0

    @Option(help: ArgumentHelp("Seconds a kept-alive connection may wait for its next request.", valueName: "seconds"))
    var idleTimeout = 60.0

    @Option(help: ArgumentHelp("Seconds a request body may go without a byte arriving.", valueName: "seconds"))
    var bodyTimeout = 30.0

    @Option(
        help: ArgumentHelp(
            "Seconds a whole request may take to arrive, head and body (the largest upload's budget).",
            valueName: "seconds"))
    var requestTimeout = 300.0

    @Option(
        help: ArgumentHelp(
            "The slowest a request body may arrive, in bytes a second averaged over --body-rate-window; "
                + "a slower one is cut however often a byte trickles in (0: no floor).",
            valueName: "bytes"))
    var minBodyRate = 1024

    @Option(
        help: ArgumentHelp(
            "Seconds over which a body's rate is averaged (what a body may save of a faster start).",
            valueName: "seconds"))
    var bodyRateWindow = 30.0

    @Option(
        help: ArgumentHelp(
            "Connections open at once; more wait until one closes (at most the open-file limit less 64).",
            valueName: "n"))
    var maxConnections = 4096

    @Option(help: ArgumentHelp("Connections open at once from one IP address; more are closed.", valueName: "n"))
    var maxConnectionsPerAddress = 128

    func validate() throws {
        for (name, seconds) in [
            ("--head-timeout", headTimeout), ("--idle-timeout", idleTimeout), ("--body-timeout", bodyTimeout),
            ("--request-timeout", requestTimeout), ("--body-rate-window", bodyRateWindow),
        ] where !(0.1...86_400).contains(seconds) {
            throw ValidationError("\(name) must be 0.1 to 86400 seconds")
        }
        guard (0...1 << 30).contains(minBodyRate) else {
            throw ValidationError("--min-body-rate must be 0 to 1073741824 bytes a second")
        }
        guard (1...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections must be 1 to 1000000")
        }
        guard (1...maxConnections).contains(maxConnectionsPerAddress) else {
            throw ValidationError("--max-connections-per-address must be 1 to --max-connections (\(maxConnections))")
        }
    }

    /// The limits asked for, with the open-file limit raised as far as it goes; a cap on
    /// connections that the limit cannot hold is lowered to what it can, and said in the log.
    func limits(logger: Logger) -> ConnectionLimits {
        var cap = maxConnections
        if let files = OpenFileLimit.raise(), OpenFileLimit.connectionsAllowed(byLimit: files) < cap {
            cap = OpenFileLimit.connectionsAllowed(byLimit: files)
            logger.warning(
                "--max-connections lowered from \(maxConnections) to \(cap): the open-file limit is \(files)")
        }
        return ConnectionLimits(
            headTimeout: Self.duration(headTimeout), idleTimeout: Self.duration(idleTimeout),
            bodyTimeout: Self.duration(bodyTimeout), requestTimeout: Self.duration(requestTimeout),
            minimumBodyRate: minBodyRate, bodyRateWindow: Self.duration(bodyRateWindow),
            maxConnections: cap, maxConnectionsPerAddress: min(maxConnectionsPerAddress, cap))
    }

    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
