import Hummingbird
import MorningProofService
import NIOCore

/// What a request carries through the routes: Hummingbird's core values and where it came from.
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer's address (nil without a socket, in tests).
    let peer: ClientAddress?
    /// Who sent the request: the peer, or from a trusted proxy the client it names
    /// (`ForwardedMiddleware` sets it before any route runs).
    var origin: RequestOrigin

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress.flatMap { ClientAddress($0) }
        origin = RequestOrigin(client: peer, viaTrustedProxy: false)
    }

    /// The client's IP address, for the sign-in and sign-up limits ("unknown" when there is none).
    var remoteAddress: String { origin.clientText }
}
