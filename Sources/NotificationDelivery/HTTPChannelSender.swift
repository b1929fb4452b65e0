import Foundation
import Logging
import MorningProofService
import MorningProofStoreContract
import Synchronization

/// Delivers notifications over HTTP: Web Push (RFC 8030/8291/8292), ntfy and signed webhooks, each
/// to a target checked after DNS resolution, concurrently, within `DeliveryTimeouts`. Make one per
/// process and share it (it keeps connections open for reuse); call `shutdown()` when done.
public final class HTTPChannelSender: ChannelDelivery {
    private let vapidKey: VAPIDKey?
    private let contact: String
    private let targets: OutboundTargets
    private let clients: OutboundClients
    private let clickURL: String?
    private let logger: Logger
    private let tokens = Mutex<[String: VAPIDToken]>([:])

    /// A sender signing Web Push with `identity` (the stored VAPID key and contact).
    /// - Parameters:
    ///   - allowLocalTargets: serve's `--allow-local-notify-targets`: allows http and local addresses.
    ///   - clickURL: the web app's URL, which ntfy opens when its notification is tapped.
    public init(
        identity: VAPIDIdentity, allowLocalTargets: Bool = false, timeouts: DeliveryTimeouts = DeliveryTimeouts(),
        clickURL: String? = nil, logger: Logger = Logger(label: "morningproof.delivery")
    ) {
        vapidKey = VAPIDKey(privateKey: identity.privateKey)
        contact = identity.contact
        targets = OutboundTargets(allowLocalTargets: allowLocalTargets)
        clients = OutboundClients(timeouts: timeouts, logger: logger)
        self.clickURL = clickURL
        self.logger = logger
    }

    /// One result per channel, in the order: each push subscription, ntfy, the webhook.
    public func deliver(_ event: NotificationEvent, to channels: AccountChannels) async -> [ChannelResult] {
        await deliver(event, to: channels, firstDelivered: {})
    }

    /// One result per channel, as `deliver(_:to:)`; `firstDelivered` runs as soon as the first
    /// channel took the event, before the others' answers are awaited.
    public func deliver(
        _ event: NotificationEvent, to channels: AccountChannels, firstDelivered: @escaping @Sendable () async -> Void
    ) async -> [ChannelResult] {
        await withTaskGroup(of: (Int, ChannelResult).self) { group in
            for (index, subscription) in channels.pushSubscriptions.enumerated() {
                group.addTask { (index, await self.push(event, to: subscription)) }
            }
            let next = channels.pushSubscriptions.count
            if let ntfy = channels.ntfy {
                group.addTask { (next, await self.ntfy(event, to: ntfy)) }
            }
            if let webhook = channels.webhook {
                group.addTask { (next + 1, await self.webhook(event, to: webhook)) }
            }
            var results: [(Int, ChannelResult)] = []
            for await result in group {
                if result.1.outcome == .delivered, !results.contains(where: { $0.1.outcome == .delivered }) {
                    await firstDelivered()
                }
                results.append(result)
            }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Sends `event` to one browser's push subscription.
    public func push(_ event: NotificationEvent, to subscription: PushSubscription) async -> ChannelResult {
        let target = subscription.endpoint
        func failed(_ why: String) -> ChannelResult {
            ChannelResult(channel: .webPush, target: target, outcome: .failed, error: why)
        }
        guard let vapidKey else { return failed("the server's VAPID key is unreadable") }
        let body: Data
        do {
            let receiver = try WebPushEncryption.ReceiverKeys(p256dh: subscription.p256dh, auth: subscription.auth)
            body = try WebPushEncryption.encrypt(PushMessage(event).json(), for: receiver)
        } catch {
            return failed(error.description)
        }
        let checked: OutboundTargets.Target
        switch await targets.check(target) {
        case .success(let value): checked = value
        case .failure(let refusal): return refused(.webPush, target: target, refusal)
        }
        guard let audience = VAPIDToken.origin(of: checked.url) else { return failed("the endpoint has no origin") }
        let token: VAPIDToken
        do {
            token = try self.token(for: audience, key: vapidKey)
        } catch {
            return failed("the VAPID token could not be signed")
        }
        let headers = [
            ("Content-Type", "application/octet-stream"), ("Content-Encoding", "aes128gcm"), ("TTL", "43200"),
            ("Urgency", "normal"), ("Authorization", token.authorization),
        ]
        let outcome = await clients.post(to: checked, headers: headers, body: body)
        return result(.webPush, target: target, outcome, goneOn: [404, 410])
    }

    /// Sends `event` to an ntfy topic.
    public func ntfy(_ event: NotificationEvent, to channel: NtfyChannel) async -> ChannelResult {
        let request = NtfyRequest.make(event, channel: channel, clickURL: clickURL)
        return await post(.ntfy, to: channel.url, request)
    }

    /// Sends `event`'s JSON to a webhook, signed with its secret.
    public func webhook(_ event: NotificationEvent, to channel: WebhookChannel) async -> ChannelResult {
        await post(.webhook, to: channel.url, WebhookRequest.make(event, channel: channel))
    }

    public func refusal(ofTarget target: String) -> String? {
        targets.refusalBeforeResolving(target)?.description
    }

    public func refusal(ofKeys subscription: PushSubscription) -> String? {
        do {
            _ = try WebPushEncryption.ReceiverKeys(p256dh: subscription.p256dh, auth: subscription.auth)
            return nil
        } catch {
            return error.description
        }
    }

    /// Closes the HTTP clients; deliveries after it fail.
    public func shutdown() async {
        await clients.shutdown()
    }

    private func post(_ channel: ChannelKind, to target: String, _ request: ChannelRequest) async -> ChannelResult {
        switch await targets.check(target) {
        case .success(let checked):
            let outcome = await clients.post(to: checked, headers: request.headers, body: request.body)
            return result(channel, target: target, outcome, goneOn: [])
        case .failure(let refusal):
            return refused(channel, target: target, refusal)
        }
    }

    /// A target the checks refused: the person reads why; the log also keeps what DNS answered.
    private func refused(_ channel: ChannelKind, target: String, _ refusal: OutboundTargets.Refusal) -> ChannelResult {
        logger.debug(
            "notification target refused",
            metadata: ["channel": "\(channel.rawValue)", "error": "\(refusal.detail ?? refusal.description)"])
        return ChannelResult(channel: channel, target: target, outcome: .failed, error: refusal.description)
    }

    private func result(_ channel: ChannelKind, target: String, _ outcome: PostOutcome, goneOn: Set<Int>)
        -> ChannelResult
    {
        let result: ChannelResult
        switch outcome {
        case .answered(let status) where (200..<300).contains(status):
            result = ChannelResult(channel: channel, target: target, outcome: .delivered, status: status)
        case .answered(let status) where goneOn.contains(status):
            result = ChannelResult(
                channel: channel, target: target, outcome: .gone, status: status,
                error: "the push service says the subscription is gone (\(status))")
        case .answered(let status) where (300..<400).contains(status):
            result = ChannelResult(
                channel: channel, target: target, outcome: .failed, status: status,
                error: "redirect not followed (\(status))")
        case .answered(let status):
            result = ChannelResult(
                channel: channel, target: target, outcome: .failed, status: status, error: "answered \(status)")
        case .unanswered(let why):
            result = ChannelResult(channel: channel, target: target, outcome: .failed, error: why)
        }
        if result.outcome != .delivered {
            logger.debug(
                "notification not delivered",
                metadata: ["channel": "\(channel.rawValue)", "error": "\(result.error ?? "")"])
        }
        return result
    }

    /// A token for `audience`, reused while it has more than an hour left (push services prefer
    /// few distinct tokens, and signing each message costs).
    private func token(for audience: String, key: VAPIDKey) throws -> VAPIDToken {
        let now = Date()
        if let cached = tokens.withLock({ $0[audience] }), Double(cached.expiry) - now.timeIntervalSince1970 > 3600 {
            return cached
        }
        let fresh = try VAPIDToken(key: key, audience: audience, contact: contact, now: now)
        tokens.withLock { tokens in
            if tokens.count >= 1024 { tokens.removeAll() }
            tokens[audience] = fresh
        }
        return fresh
    }
}
