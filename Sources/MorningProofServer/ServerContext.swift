import Hummingbird
import NIOCore

/// What a request carries through the routes: Hummingbird's core values and the client's address.
public struct ServerContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address, for counting failed sign-ins ("unknown" when there is none, in tests).
    let remoteAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
