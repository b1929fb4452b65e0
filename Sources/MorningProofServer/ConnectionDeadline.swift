import NIOCore

/// What one connection waits for and until when: a pure state machine that the connection's
/// handlers feed with what they see (bytes, a request's head and end, an answer's end) and ask
/// for the moment it must be closed.
struct ConnectionDeadline {
    enum Phase: Equatable {
        /// No request in progress: waiting for the next head, which must be whole by `since` plus
        /// the head timeout, or, on a kept-alive connection where no byte came yet, for its first
        /// byte, by `since` plus the idle timeout.
        case awaitingHead(since: NIODeadline, keptAlive: Bool)
        /// A head has arrived, its body has not arrived whole.
        case readingRequest(started: NIODeadline)
        /// The request has arrived whole; the server works on its answer, which is never timed.
        case answering
        /// An answer ended the connection: what still arrives is dropped until `until`, at most `bytesLeft`.
        case closing(until: NIODeadline, bytesLeft: Int)
    }

    /// Why a connection is closed.
    enum Reason: String {
        case head = "no whole request head in time"
        case idle = "idle after its last answer"
        case bodyStalled = "its request body stalled"
        case bodyTooSlow = "its request body arrived slower than the floor rate"
        case request = "its request took too long to arrive"
        case closing = "it was answered and closed"
    }

    let limits: ConnectionLimits
    private(set) var phase: Phase
    /// Requests whose head has arrived and whose answer has not ended (more than one when pipelined).
    private var unanswered = 0
    /// Since when the server has asked for bytes that have not come; nil while it does not read.
    private var waitingForBytesSince: NIODeadline?
    /// While a request arrives: the time the server may still wait for its bytes before the body is
    /// below the floor rate (`ConnectionLimits.minimumBodyRate`); each byte adds to it, up to the window.
    private var bodyTimeLeft = TimeAmount.nanoseconds(0)

    init(limits: ConnectionLimits, openedAt now: NIODeadline) {
        self.limits = limits
        phase = .awaitingHead(since: now, keptAlive: false)
    }

    /// The server asked the socket for more bytes.
    mutating func readRequested(at now: NIODeadline) {
        if waitingForBytesSince == nil { waitingForBytesSince = now }
    }

    /// `count` bytes arrived; false when they are to be dropped (the connection is closing).
    mutating func bytesArrived(_ count: Int, at now: NIODeadline) -> Bool {
        if case .readingRequest = phase { spendBodyTime(until: now, bytes: count) }
        waitingForBytesSince = nil
        switch phase {
        case .awaitingHead(_, keptAlive: true):
            phase = .awaitingHead(since: now, keptAlive: false)
        case .closing(let until, let bytesLeft):
            phase = .closing(until: until, bytesLeft: bytesLeft - count)
            return false
        default:
            break
        }
        return true
    }

    /// A request's head has arrived.
    mutating func headArrived(at now: NIODeadline) {
        unanswered += 1
        switch phase {
        case .awaitingHead(let since, _):
            phase = .readingRequest(started: since)
            bodyTimeLeft = TimeAmount(limits.bodyRateWindow)
        case .answering:
            phase = .readingRequest(started: now)
            bodyTimeLeft = TimeAmount(limits.bodyRateWindow)
        case .readingRequest, .closing: break
        }
    }

    /// A request's body has arrived whole.
    mutating func requestEnded() {
        if case .readingRequest = phase { phase = .answering }
    }

    /// An answer has been written whole; `closing` when it ends the connection.
    mutating func answerEnded(at now: NIODeadline, closing: Bool) {
        unanswered = max(0, unanswered - 1)
        if case .closing = phase { return }
        if closing {
            phase = .closing(until: now + TimeAmount(limits.lingerTime), bytesLeft: limits.lingerBytes)
        } else if phase == .answering && unanswered == 0 {
            phase = .awaitingHead(since: now, keptAlive: true)
        }
    }

    /// The time waited for bytes since `waitingForBytesSince` is spent; `bytes` buy more, at the floor
    /// rate, up to the window. Once spent to nothing it stays so: the deadline has passed.
    private mutating func spendBodyTime(until now: NIODeadline, bytes: Int) {
        guard limits.minimumBodyRate > 0, bodyTimeLeft > .nanoseconds(0) else { return }
        if let waiting = waitingForBytesSince { bodyTimeLeft = bodyTimeLeft - (now - waiting) }
        guard bodyTimeLeft > .nanoseconds(0) else { return }
        let bought = Int64(bytes) * 1_000_000_000 / Int64(limits.minimumBodyRate)
        bodyTimeLeft = min(TimeAmount(limits.bodyRateWindow), bodyTimeLeft + .nanoseconds(bought))
    }

    /// When the connection must be closed if nothing changes, and why; nil while the server works.
    var deadline: (at: NIODeadline, reason: Reason)? {
        switch phase {
        case .awaitingHead(let since, let keptAlive):
            return keptAlive
                ? (since + TimeAmount(limits.idleTimeout), .idle) : (since + TimeAmount(limits.headTimeout), .head)
        case .readingRequest(let started):
            let whole = (started + TimeAmount(limits.requestTimeout), Reason.request)
            guard let waiting = waitingForBytesSince else { return whole }
            let stalled = waiting + TimeAmount(limits.bodyTimeout)
            var first = stalled < whole.0 ? (stalled, Reason.bodyStalled) : whole
            if limits.minimumBodyRate > 0 {
                let slow = bodyTimeLeft > .nanoseconds(0) ? waiting + bodyTimeLeft : .uptimeNanoseconds(0)
                if slow < first.0 { first = (slow, .bodyTooSlow) }
            }
            return first
        case .answering:
            return nil
        case .closing(let until, let bytesLeft):
            return bytesLeft > 0 ? (until, .closing) : (.uptimeNanoseconds(0), .closing)
        }
    }
}
