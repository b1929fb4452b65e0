import HummingbirdCore
import Logging
import MorningProofCore
import MorningProofService
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOSSL

/// Hummingbird's HTTP/1 channel (`HTTP1Channel`) with the connection guards around it: a
/// connection from an address that already has its share open is closed at once, every
/// connection state has its timeout (`ConnectionTimeoutHandler`, first on the raw bytes), and
/// answers end their connection where they must (`HTTPMessageGuard`, where the HTTP version is
/// still known). Hummingbird's own idle timeout is one timer for every state, and its
/// additional handlers come after the HTTP version is gone, hence a pipeline of our own.
struct GuardedHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let limits: ConnectionLimits
    let openConnections: OpenConnections
    /// The certificate when the connection speaks TLS (`serve --tls-cert`); nil: plain HTTP.
    let tls: TLSServing?

    init(
        responder: @escaping HTTPChannelHandler.Responder, limits: ConnectionLimits,
        trusted: TrustedProxies = TrustedProxies(), tls: TLSServing? = nil
    ) {
        self.responder = responder
        self.limits = limits
        self.tls = tls
        openConnections = OpenConnections(perAddress: limits.maxConnectionsPerAddress, trusted: trusted)
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let address = channel.remoteAddress?.ipAddress ?? "unknown"
            let admitted = openConnections.open(from: address)
            channel.closeFuture.whenComplete { _ in openConnections.close(from: address) }

            if !admitted {
                logger.debug("closing a connection from \(address): it has \(limits.maxConnectionsPerAddress) open")
                try channel.pipeline.syncOperations.addHandler(CloseWhenActive())
            }
            let timeouts = ConnectionTimeoutHandler(limits: limits, logger: logger)
            try channel.pipeline.syncOperations.addHandler(timeouts)
            // TLS after the timeouts: a client that never finishes its handshake has no request head.
            if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls.context)) }
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: .init())
            try channel.pipeline.syncOperations.addHandler(HTTPMessageGuard(timeouts: timeouts))
            try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: tls != nil))
            // Hummingbird's own state handler, without its idle timeout: it closes idle connections
            // at a graceful shutdown.
            try channel.pipeline.syncOperations.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: asyncChannel, logger: logger)
    }
}

/// Closes its connection as soon as it is active (the channel is set up before it is registered,
/// when it cannot be closed yet).
final class CloseWhenActive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { context.close(promise: nil) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.close(promise: nil)
    }
}

/// How many connections each remote address has open, shared by every event loop. An IPv6 peer
/// counts by its /64 (`ClientAddress.person`: one /64 is one person); a trusted proxy, which carries
/// everyone's connections, has no cap of its own (the server's total cap still holds).
final class OpenConnections: Sendable {
    private let perAddress: Int
    private let trusted: TrustedProxies
    private let counts = Locked([String: Int]())

    init(perAddress: Int, trusted: TrustedProxies = TrustedProxies()) {
        self.perAddress = perAddress
        self.trusted = trusted
    }

    /// Counts a new connection from `peer` (its IP address); false when it is one more than the
    /// address may have.
    func open(from peer: String) -> Bool {
        let capped = ClientAddress(peer).map { !trusted.contains($0) } ?? true
        return counts.withLock { counts in
            let count = counts[Self.key(peer), default: 0] + 1
            counts[Self.key(peer)] = count
            return !capped || count <= perAddress
        }
    }

    func close(from peer: String) {
        counts.withLock { counts in
            let count = counts[Self.key(peer), default: 1] - 1
            counts[Self.key(peer)] = count > 0 ? count : nil
        }
    }

    /// The connections open from `peer`'s address (its /64 for IPv6).
    func count(from peer: String) -> Int {
        counts.withLock { $0[Self.key(peer), default: 0] }
    }

    private static func key(_ peer: String) -> String { ClientAddress.person(of: peer) }
}
