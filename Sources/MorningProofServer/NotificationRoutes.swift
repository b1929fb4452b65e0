import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// `/api/notifications/...`: where the signed-in account's notifications go besides its browsers
/// (the ntfy topic and the webhook), a test message to every channel, and the events of the last
/// days. Full-scope tokens only: a metrics token manages nothing here. Every token is checked before
/// a body is read. The browsers' Web Push subscriptions are `PushRoutes`'.
struct NotificationRoutes {
    let scope: RequestScope
    /// One test message per account per 10 seconds, in this process.
    let testLimit = TestMessageLimit()

    static let utc = TimeZone(identifier: "UTC")!

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/notifications/channels", channels)
        table.add(.put, "/api/notifications/channels", setChannels)
        table.add(.delete, "/api/notifications/channels", removeChannels)
        table.add(.post, "/api/notifications/test", sendTest)
        table.add(.get, "/api/notifications", list)
    }

    private func service(_ signedIn: SignedInRequest) -> NotificationChannelService {
        scope.notificationChannels(signedIn, testLimit: testLimit)
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
        let body = try await scope.notificationBody(request, allowed: ["ntfy", "webhook"])
        var change = NotificationChannelService.Change()
        switch try body.setting("ntfy", allowed: ["url", "token"]) {
        case nil: break
        case .some(nil): change.ntfy = .remove
        case .some(let fields?):
            let token: String? =
                switch fields.fields["token"] {
                case nil, .null?: nil
                case .string(let text)?: text
                default: throw APIError.badRequest("\"ntfy.token\" must be a string or null")
                }
            change.ntfy = .set(NtfyChannel(url: try fields.requiredString("url", in: "ntfy"), token: token))
        }
        switch try body.setting("webhook", allowed: ["url"]) {
        case nil: break
        case .some(nil): change.webhookURL = .remove
        case .some(let fields?): change.webhookURL = .set(try fields.requiredString("url", in: "webhook"))
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
}

extension RequestScope {
    /// The largest body the notification and push routes read: a subscription's endpoint and keys,
    /// or two URLs and a token.
    static let notificationBodyLimit = 16 * 1024

    /// The signed-in account's notification channels, under the server's rules for targets; one
    /// test message per `testLimit`.
    func notificationChannels(_ signedIn: SignedInRequest, testLimit: TestMessageLimit = TestMessageLimit())
        -> NotificationChannelService
    {
        NotificationChannelService(
            store: signedIn.database, delivery: configuration.channelDelivery,
            rules: ChannelRules(allowLocalTargets: configuration.allowLocalNotifyTargets), testLimit: testLimit)
    }

    /// The JSON body of a notification or push route, within `notificationBodyLimit`.
    func notificationBody(_ request: Request, allowed: Set<String>) async throws -> JSONBody {
        try await JSONBody.read(
            request, limit: min(Self.notificationBodyLimit, configuration.bodyLimit), allowed: allowed)
    }
}
