import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Where each account's notifications go, on both engines: push subscriptions one per endpoint
/// (moving to the account that saves it last), the ntfy topic and webhook replaced together, and
/// one VAPID identity for every process, the first stored.
@Suite struct NotificationChannelStoreTests {
    static let key = "B" + String(repeating: "A", count: 86)
    static func subscription(_ endpoint: String, auth: String = "auth-1") -> PushSubscription {
        PushSubscription(endpoint: endpoint, p256dh: key, auth: auth)
    }

    @Test(arguments: Engine.available) func subscriptionsAreTheAccountsOwnAndOnePerEndpoint(engine: Engine) async throws
    {
        try await engine.withStore { store in
            let ada = store.scoped(to: try await Fixture.account(store, "ada@example.com").id)
            let bob = store.scoped(to: try await Fixture.account(store, "bob@example.com").id)
            try await ada.savePushSubscription(Self.subscription("https://push.example/a"), at: Fixture.noon)
            try await ada.savePushSubscription(Self.subscription("https://push.example/b"), at: Fixture.hour(1))
            // The same browser again, with new keys: one row, its keys replaced, its date kept.
            try await ada.savePushSubscription(
                Self.subscription("https://push.example/a", auth: "auth-2"), at: Fixture.hour(2))
            let saved = try await ada.notificationChannels().pushSubscriptions
            #expect(saved.map(\.endpoint) == ["https://push.example/a", "https://push.example/b"])
            #expect(saved.map(\.auth) == ["auth-2", "auth-1"])
            #expect(saved.first?.createdAt == Fixture.noon)
            #expect(try await bob.notificationChannels().isEmpty)
            // Bob cannot remove Ada's, nor take her endpoint with keys of his own (an endpoint learnt
            // elsewhere); the same browser (the same keys) signed in as Bob moves it to Bob.
            #expect(try await bob.removePushSubscription(endpoint: "https://push.example/a") == false)
            await #expect(throws: PushSubscription.takenElsewhere) {
                try await bob.savePushSubscription(Self.subscription("https://push.example/a"), at: Fixture.hour(3))
            }
            #expect(try await ada.notificationChannels().pushSubscriptions.count == 2)
            #expect(try await bob.notificationChannels().isEmpty)
            try await bob.savePushSubscription(
                Self.subscription("https://push.example/a", auth: "auth-2"), at: Fixture.hour(3))
            #expect(
                try await ada.notificationChannels().pushSubscriptions.map(\.endpoint) == ["https://push.example/b"])
            let bobs = try await bob.notificationChannels().pushSubscriptions
            #expect(bobs.map(\.endpoint) == ["https://push.example/a"])
            #expect(bobs.first?.createdAt == Fixture.hour(3))
            #expect(try await ada.removePushSubscription(endpoint: "https://push.example/b"))
            #expect(try await ada.notificationChannels().isEmpty)
        }
    }

    @Test(arguments: Engine.available) func ntfyAndWebhookAreReplacedTogether(engine: Engine) async throws {
        try await engine.withStore { store in
            let ada = store.scoped(to: try await Fixture.account(store, "ada@example.com").id)
            let bob = store.scoped(to: try await Fixture.account(store, "bob@example.com").id)
            let ntfy = NtfyChannel(url: "https://ntfy.example/topic", token: "tk_1")
            let webhook = WebhookChannel(url: "https://hooks.example/mp", secret: "s3cret")
            try await ada.setChannels(ntfy: ntfy, webhook: webhook)
            var channels = try await ada.notificationChannels()
            #expect(channels.ntfy == ntfy && channels.webhook == webhook)
            #expect(try await bob.notificationChannels().isEmpty)
            try await ada.setChannels(ntfy: NtfyChannel(url: "https://ntfy.example/other"), webhook: nil)
            channels = try await ada.notificationChannels()
            #expect(channels.ntfy == NtfyChannel(url: "https://ntfy.example/other") && channels.webhook == nil)
            try await ada.setChannels(ntfy: nil, webhook: nil)
            #expect(try await ada.notificationChannels().isEmpty)
        }
    }

    @Test(arguments: Engine.available) func aChangeNamingOnlyNtfyKeepsTheWebhook(engine: Engine) async throws {
        try await engine.withStore { store in
            let ada = store.scoped(to: try await Fixture.account(store, "ada@example.com").id)
            let webhook = WebhookChannel(url: "https://hooks.example/mp", secret: "s3cret")
            var stored = try await ada.changeChannels(ntfy: .keep, webhook: .set(webhook))
            #expect(stored.ntfy == nil && stored.webhook == webhook)
            let ntfy = NtfyChannel(url: "https://ntfy.example/topic", token: "tk_1")
            stored = try await ada.changeChannels(ntfy: .set(ntfy), webhook: .keep)
            #expect(stored.ntfy == ntfy && stored.webhook == webhook)
            // The same URL keeps its secret; a new URL takes the one given.
            stored = try await ada.changeChannels(
                ntfy: .keep, webhook: .set(WebhookChannel(url: webhook.url, secret: "other")))
            #expect(stored.webhook == webhook && stored.ntfy == ntfy)
            let moved = WebhookChannel(url: "https://hooks.example/new", secret: "other")
            stored = try await ada.changeChannels(ntfy: .keep, webhook: .set(moved))
            #expect(stored.webhook == moved)
            stored = try await ada.changeChannels(ntfy: .remove, webhook: .keep)
            #expect(stored.ntfy == nil && stored.webhook == moved)
            let channels = try await ada.notificationChannels()
            #expect(channels.ntfy == nil && channels.webhook == moved)
        }
    }

    @Test(arguments: Engine.available) func twoStartsAtOnceGetTheIdentityStoredFirst(engine: Engine) async throws {
        try await engine.withStore(file: true) { store in
            let identities = try #require(store as? any VAPIDIdentityStore)
            let candidates = (0..<4).map {
                VAPIDIdentity(
                    privateKey: Data(repeating: UInt8($0 + 1), count: 32), contact: "mailto:\($0)@example.com")
            }
            let got = try await withThrowingTaskGroup(of: VAPIDIdentity.self) { group in
                for candidate in candidates { group.addTask { try await identities.vapidIdentity(orStore: candidate) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(got).count == 1)
            let first = try #require(got.first)
            #expect(candidates.contains(first))
            // Later starts, with another candidate, get the same key; the contact changes alone.
            let later = VAPIDIdentity(privateKey: Data(repeating: 9, count: 32), contact: "mailto:x@example.com")
            #expect(try await identities.vapidIdentity(orStore: later) == first)
            try await identities.setVAPIDContact("mailto:ops@example.com")
            #expect(
                try await identities.vapidIdentity(orStore: later)
                    == VAPIDIdentity(privateKey: first.privateKey, contact: "mailto:ops@example.com"))
        }
    }
}

/// `db copy` into a PostgreSQL database that a server started on already (it made a VAPID
/// identity): still empty for the copy; the file's identity replaces it, since the file's browsers
/// subscribed to that key, and a file without one leaves it.
@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
struct VAPIDIdentityCopyTests {
    static let started = VAPIDIdentity(privateKey: Data(repeating: 2, count: 32), contact: "mailto:pg@example.com")

    @Test(arguments: [true, false]) func aCopyKeepsTheFilesIdentityElseTheServers(fileHasOne: Bool) async throws {
        let file = try AppDatabase.inMemory()
        let filed = VAPIDIdentity(privateKey: Data(repeating: 3, count: 32), contact: "mailto:file@example.com")
        if fileHasOne { _ = try await file.vapidIdentity(orStore: filed) }
        let dump = try file.dump(systemZone: "UTC")
        try await TestPostgres.withDatabase { url in
            let store = PostgresStore(url: url, poolSize: 1)
            try await store.whileRunning {
                try await store.migrate()
                _ = try await store.vapidIdentity(orStore: Self.started)
                _ = try await store.copy(dump, from: "cli.sqlite")
                let kept = try await store.vapidIdentity(
                    orStore: VAPIDIdentity(privateKey: Data(count: 32), contact: "x"))
                #expect(kept == (fileHasOne ? filed : Self.started))
            }
        }
    }
}
