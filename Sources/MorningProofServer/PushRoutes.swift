import Hummingbird
import MorningProofService
import MorningProofStoreContract
import NotificationDelivery

/// `/api/push/...`: Web Push for the signed-in account: the server's public key, and the browser
/// subscriptions it sends to. Full-scope tokens only; every token is checked before a body is read.
/// The ntfy topic, the webhook and the test message are `NotificationRoutes`'.
struct PushRoutes {
    let scope: RequestScope

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/push/key", publicKey)
        table.add(.post, "/api/push/subscriptions", subscribe)
        table.add(.delete, "/api/push/subscriptions", unsubscribe)
    }

    /// `{"publicKey": BASE64URL}`: the VAPID public key a browser subscribes with.
    @Sendable func publicKey(_ request: Request, _ context: ServerContext) async throws -> Response {
        _ = try await scope.account(request)
        guard let identity = scope.configuration.vapidIdentity, let key = VAPIDKey(privateKey: identity.privateKey)
        else {
            throw APIError(
                status: .serviceUnavailable, code: "push_not_configured",
                message: "Web Push is not set up on this server")
        }
        return JSONResponse.make(.ok, ["publicKey": key.publicKeyBase64URL])
    }

    /// Saves the browser's `PushSubscription.toJSON()` as the account's: 201.
    @Sendable func subscribe(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let body = try await scope.notificationBody(request, allowed: ["endpoint", "expirationTime", "keys"])
        switch body.fields["expirationTime"] {
        case nil, .null?, .number?: break
        default: throw APIError.badRequest("\"expirationTime\" must be null or a number")
        }
        guard case let keys?? = try body.setting("keys", allowed: ["p256dh", "auth"]) else {
            throw APIError.badRequest(
                "\"keys\" is missing: give {\"p256dh\", \"auth\"} as the browser's subscription has them")
        }
        let subscription = PushSubscription(
            endpoint: try body.requiredString("endpoint"), p256dh: try keys.requiredString("p256dh", in: "keys"),
            auth: try keys.requiredString("auth", in: "keys"))
        try await scope.notificationChannels(signedIn).subscribe(subscription, at: signedIn.now)
        return JSONResponse.make(.created, ["endpoint": subscription.endpoint])
    }

    /// Removes the account's subscription with `{"endpoint"}`: 204, 404 when it has none.
    @Sendable func unsubscribe(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let body = try await scope.notificationBody(request, allowed: ["endpoint"])
        try await scope.notificationChannels(signedIn).unsubscribe(endpoint: try body.requiredString("endpoint"))
        return Response(status: .noContent)
    }
}
