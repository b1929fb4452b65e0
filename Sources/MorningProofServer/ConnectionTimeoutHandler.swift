import Logging
import NIOCore

/// The first handler of every connection, on its raw bytes: it keeps the connection's
/// `ConnectionDeadline` and closes the connection when that deadline passes. It sees every byte
/// that arrives and every read the server asks for (a server that does not read, because it is
/// busy with the request, never makes a body look stalled); `HTTPMessageGuard`, after the HTTP
/// decoder, tells it where requests and answers begin and end.
final class ConnectionTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var state: ConnectionDeadline
    private var context: ChannelHandlerContext?
    private var timer: Scheduled<Void>?
    private var timerDeadline: NIODeadline?
    private let logger: Logger

    init(limits: ConnectionLimits, logger: Logger) {
        state = ConnectionDeadline(limits: limits, openedAt: .now())
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        state = ConnectionDeadline(limits: state.limits, openedAt: .now())
        rescheduleTimer()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data).readableBytes
        if state.bytesArrived(bytes, at: .now()) {
            context.fireChannelRead(data)
        }
        rescheduleTimer()
    }

    func read(context: ChannelHandlerContext) {
        state.readRequested(at: .now())
        rescheduleTimer()
        context.read()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client closed its side after the answer that ends the connection: nothing is left.
        if case .closing = state.phase, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    // What HTTPMessageGuard reports.

    func headArrived() {
        state.headArrived(at: .now())
        rescheduleTimer()
    }

    func requestEnded() {
        state.requestEnded()
        rescheduleTimer()
    }

    func answerEnded(closing: Bool) {
        state.answerEnded(at: .now(), closing: closing)
        rescheduleTimer()
    }

    /// Keeps one timer at or before the state's deadline; when it fires early (the deadline moved
    /// later), it is set again for the new deadline.
    private func rescheduleTimer() {
        guard let context else { return }
        guard let deadline = state.deadline else {
            timer?.cancel()
            timer = nil
            return
        }
        if let timerDeadline, timer != nil, timerDeadline <= deadline.at { return }
        timer?.cancel()
        timerDeadline = deadline.at
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline.at) { [self] in
            timer = nil
            guard let context = self.context, let deadline = state.deadline else { return }
            if deadline.at <= .now() {
                logger.debug(
                    "closing a connection from \(context.remoteAddress?.ipAddress ?? "?"): \(deadline.reason.rawValue)")
                context.close(promise: nil)
            } else {
                rescheduleTimer()
            }
        }
    }
}
