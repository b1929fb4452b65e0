import NIOCore
import NIOHTTP1

/// Sits right after the HTTP/1 decoder and encoder, where requests still carry their version: it
/// tells the connection's `ConnectionTimeoutHandler` where requests and answers begin and end,
/// and ends the connection after an answer when it must end:
/// - the request asked for it (`Connection: close`, or HTTP/1.0 without `keep-alive`); the answer
///   then says `Connection: close` (RFC 9112 §9.6), in HTTP/1.1 as RFC 9110 §2.5 asks;
/// - the answer says `Connection: close` itself (a request that is not valid HTTP);
/// - the answer came before the request's body arrived whole (an early 401, 404 or 413): the body
///   is not read any further, and the client, which may still be sending it, is not left blocked.
/// Ending means: the answer is flushed, the sending side shut (the client reads the answer, then
/// end of file), what still arrives dropped for a short while, then the connection closed.
final class HTTPMessageGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeouts: ConnectionTimeoutHandler
    /// The requests not yet answered, oldest first: may the connection stay open after each, and
    /// is it HTTP/1.0 (which keeps alive only when both sides say so).
    private var unanswered: [(keepAlive: Bool, http10: Bool)] = []
    /// A request's head has arrived and its end has not.
    private var readingBody = false
    /// The answer being written ends the connection.
    private var closingAfterAnswer = false
    private var closed = false

    init(timeouts: ConnectionTimeoutHandler) {
        self.timeouts = timeouts
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            unanswered.append((head.isKeepAlive, head.version == .http1_0))
            readingBody = true
            timeouts.headArrived()
        case .body:
            break
        case .end:
            readingBody = false
            timeouts.requestEnded()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            let request = unanswered.isEmpty ? (keepAlive: false, http10: false) : unanswered.removeFirst()
            closingAfterAnswer =
                !request.keepAlive || readingBody
                || head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
            if closingAfterAnswer {
                head.headers.replaceOrAdd(name: "Connection", value: "close")
            } else if request.http10 {
                head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            let closing = closingAfterAnswer || readingBody
            closingAfterAnswer = false
            guard closing, !closed else {
                timeouts.answerEnded(closing: false)
                context.write(data, promise: promise)
                return
            }
            closed = true
            timeouts.answerEnded(closing: true)
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            written.futureResult.whenComplete { _ in
                context.close(mode: .output, promise: nil)
            }
        }
    }
}
