import Foundation

/// How long a connection may wait in each of its states, and how many may be open: what keeps one
/// slow or hostile client from holding the server's descriptors. The defaults follow nginx's and
/// Go net/http's: a slow client is cut off, a slow server never is.
public struct ConnectionLimits: Sendable, Equatable {
    /// From the connection's start, or from the first byte of a request on a kept-alive connection,
    /// until its head (request line and headers) is complete.
    public var headTimeout: Duration
    /// A kept-alive connection between the end of one answer and the first byte of the next request.
    public var idleTimeout: Duration
    /// A request body in which no byte arrives for this long (while the server is ready to read).
    public var bodyTimeout: Duration
    /// From a request's first byte until its body has arrived whole: the largest upload's budget.
    public var requestTimeout: Duration
    /// The slowest a request body may arrive on average, in bytes a second (0: no floor). Each byte
    /// buys `1 / minimumBodyRate` seconds of waiting for the body, and at most `bodyRateWindow` of
    /// them are kept: a body starts with the window's time, and one that arrives slower than the floor
    /// over a window is cut, however often a byte trickles in. Only time in which the server asks for
    /// bytes counts: a server busy with the body never makes it look slow.
    public var minimumBodyRate: Int
    /// The time over which a body's rate is averaged, and what a body may save of a faster start.
    public var bodyRateWindow: Duration
    /// Connections open at once; the next ones wait in the listen backlog until one closes.
    public var maxConnections: Int
    /// Connections open at once from one IP address; the next ones from it are closed at once.
    public var maxConnectionsPerAddress: Int
    /// After an answer that ends the connection before the request has arrived whole (an early
    /// 401, 404 or 413), what the client still sends is read and dropped for this long, at most
    /// `lingerBytes`, so that it can read the answer before the connection closes.
    public var lingerTime: Duration
    public var lingerBytes: Int

    public init(
        headTimeout: Duration = .seconds(10), idleTimeout: Duration = .seconds(60),
        bodyTimeout: Duration = .seconds(30),
        requestTimeout: Duration = .seconds(300), minimumBodyRate: Int = 1024, bodyRateWindow: Duration = .seconds(30),
        maxConnections: Int = 4096, maxConnectionsPerAddress: Int = 128,
        lingerTime: Duration = .seconds(2), lingerBytes: Int = 1 << 20
    ) {
        self.headTimeout = headTimeout
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.requestTimeout = requestTimeout
        self.minimumBodyRate = max(0, minimumBodyRate)
        self.bodyRateWindow = bodyRateWindow
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.lingerTime = lingerTime
        self.lingerBytes = lingerBytes
    }
}
