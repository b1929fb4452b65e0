import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import NotificationDelivery

/// Where the signed-in account's notifications go (`/api/push/...`, `/api/notifications/...`): the
/// server's Web Push key, the browser subscriptions, the ntfy topic and webhook, a test message to
/// all of them, and the events of the last days. Full-scope tokens only: a metrics token manages
/// nothing here. Every token is checked before a body is read.
struct NotificationRoutes {
    let scope: RequestScope
    /// One test message per account per 10 seconds, in this process.
    let testLimit = TestMessageLimit()

    /// The largest body these routes read: a subscription's endpoint and keys, or two URLs and a token.
    static let bodyLimit = 16 * 1024
    static let utc = TimeZone(identifier: "UTC")!

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/push/key", publicKey)
        table.add(.post, "/api/push/subscriptions", subscribe)
        table.add(.delete, "/api/push/subscriptions", unsubscribe)
        table.add(.get, "/api/notifications/channels", channels)
        table.add(.put, "/api/notifications/channels", setChannels)
        table.add(.delete, "/api/notifications/channels", removeChannels)
        table.add(.post, "/api/notifications/test", sendTest)
        table.add(.get, "/api/notifications", list)
    }

    private func service(_ signedIn: SignedInRequest) -> NotificationChannelService {
        NotificationChannelService(
            store: signedIn.database, delivery: scope.configuration.channelDelivery,
            rules: ChannelRules(allowLocalTargets: scope.configuration.allowLocalNotifyTargets), testLimit: testLimit)
    }

    private func body(_ request: Request, allowed: Set<String>) async throws -> JSONBody {
        try await JSONBody.read(request, limit: min(Self.bodyLimit, scope.configuration.bodyLimit), allowed: allowed)
    }

    /// `{"publicKey": BASE64URL}`: the VAPID public key a browser subscribes with.
    @Sendable func publicKey(_ request: Request, _ context: ServerContext) async throws -> Response {
        _ = try await scope.account(request)
        guard let identity = scope.configuration.vapidIdentity, let key = VAPIDKey(privateKey: identity.privateKey)
        else {
            throw APIError(
                status: .serviceUnavailable, code: "push_not_configured", message: "Web Push is not set up on this server")
        }
        return JSONResponse.make(.ok, ["publicKey": key.publicKeyBase64URL])
    }

    /// Saves the browser's `PushSubscription.toJSON()` as the account's: 201.
    @Sendable func subscribe(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let body = try await body(request, allowed: ["endpoint", "expirationTime", "keys"])
        switch body.fields["expirationTime"] {
        case nil, .null?, .number?: break
        default: throw APIError.badRequest("\"expirationTime\" must be null or a number")
        }
        guard case let keys?? = try setting(body, "keys", allowed: ["p256dh", "auth"]) else {
            throw APIError.badRequest("\"keys\" is missing: give {\"p256dh\", \"auth\"} as the browser's subscription has them")
        }
        let subscription = PushSubscription(
            endpoint: try body.requiredString("endpoint"), p256dh: try field(keys, "p256dh", in: "keys"),
            auth: try field(keys, "auth", in: "keys"))
        try await service(signedIn).subscribe(subscription, at: signedIn.now)
        return JSONResponse.make(.created, ["endpoint": subscription.endpoint])
    }

    /// Removes the account's subscription with `{"endpoint"}`: 204, 404 when it has none.
    @Sendable func unsubscribe(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let body = try await body(request, allowed: ["endpoint"])
        try await service(signedIn).unsubscribe(endpoint: try body.requiredString("endpoint"))
        return Response(status: .noContent)
    }

    @Sendable func channels(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let channels = try await service(signedIn).channels()
        return JSONResponse.make(.ok, ChannelsJSON(channels, zone: Self.utc))
    }

    /// Sets, with `{"ntfy": {"url", "token"?} | null, "webhook": {"url"} | null}`, the ntfy topic and
    /// the webhook (a field left out stays as it is, null removes it); the answer is GET's, with
    /// `webhook.secret` when this request made the webhook's secret.
    @Sendable func setChannels(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let body = try await body(request, allowed: ["ntfy", "webhook"])
        var change = NotificationChannelService.Change()
        switch try setting(body, "ntfy", allowed: ["url", "token"]) {
        case nil: break
        case .some(nil): change.ntfy = .remove
        case .some(let fields?):
            let token: String? =
                switch fields.fields["token"] {
                case nil, .null?: nil
                case .string(let text)?: text
                default: throw APIError.badRequest("\"ntfy.token\" must be a string or null")
                }
            change.ntfy = .set(NtfyChannel(url: try field(fields, "url", in: "ntfy"), token: token))
        }
        switch try setting(body, "webhook", allowed: ["url"]) {
        case nil: break
        case .some(nil): change.webhookURL = .remove
        case .some(let fields?): change.webhookURL = .set(try field(fields, "url", in: "webhook"))
        }
        let (channels, secret) = try await service(signedIn).setChannels(change)
        return JSONResponse.make(.ok, ChannelsJSON(channels, zone: Self.utc, newSecret: secret))
    }

    @Sendable func removeChannels(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        try await service(signedIn).removeChannels()
        return Response(status: .noContent)
    }

    /// Sends a test message to every channel: `{"results": [ChannelResult...]}`.
    @Sendable func sendTest(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let results = try await signedIn.run { account in
            try await service(signedIn).sendTest(
                accountID: account.account.id, clock: account.clock, now: account.now, realNow: scope.realNow())
        }
        return JSONResponse.make(.ok, ["results": results])
    }

    /// `?days=N` (1 to 90, 7 by default): the events of the last N days, as `notifications list --json`.
    @Sendable func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let days = try Self.days(request)
        let list = try await signedIn.run { account in
            try await service(signedIn).notifications(days: days, clock: account.clock, now: account.now)
                .map { NotificationJSON($0, zone: account.clock.timeZone) }
        }
        return JSONResponse.make(.ok, ["notifications": list])
    }

    private static func days(_ request: Request) throws -> Int {
        guard let text = request.uri.queryParameters["days"] else { return 7 }
        let range = NotificationChannelService.listDays
        guard let days = Int(text), range.contains(days) else {
            throw APIError.badRequest(
                "\"days\" must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return days
    }

    /// A required string field of a nested object, named `outer.key` in messages.
    private func field(_ object: JSONBody, _ key: String, in outer: String) throws -> String {
        switch object.fields[key] {
        case .string(let text)?: return text
        case nil, .null?: throw APIError.badRequest("\"\(outer).\(key)\" is missing")
        default: throw APIError.badRequest("\"\(outer).\(key)\" must be a string")
        }
    }

    /// An object field of the body: nil when left out, `.some(nil)` for null (a channel to remove),
    /// else its object, whose fields must be among `allowed`.
    private func setting(_ body: JSONBody, _ key: String, allowed: Set<String>) throws -> JSONBody?? {
        switch body.fields[key] {
        case nil: return nil
        case .null?: return .some(nil)
        case .object(let fields)?:
            if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw APIError.badRequest(
                    "unknown field \"\(key).\(unknown)\" (fields: \(allowed.sorted().joined(separator: ", ")))")
            }
            return .some(JSONBody(fields: fields))
        default: throw APIError.badRequest("\"\(key)\" must be an object or null")
        }
    }
}
