import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

@Suite struct NotificationChannelServiceTests {
    static let p256dh = base64URL(Data([4] + [UInt8](repeating: 7, count: 64)))
    static let auth = base64URL(Data(repeating: 9, count: 16))
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let clock = DayClock(zoneIdentifier: "Europe/Istanbul")!

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func subscription(_ endpoint: String, p256dh: String = p256dh, auth: String = auth) -> PushSubscription {
        PushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth)
    }

    static func service(_ delivery: any ChannelDelivery = RecordingDelivery(), local: Bool = false) throws
        -> NotificationChannelService
    {
        NotificationChannelService(
            store: try AppDatabase.inMemory(), delivery: delivery, rules: ChannelRules(allowLocalTargets: local))
    }

    @Test(arguments: [
        ("http://ntfy.example/t", "https"), ("ftp://ntfy.example/t", "https"), ("not a url", "not a URL"),
        ("https://user:pw@ntfy.example/t", "user name or password"), ("", "empty"), ("/relative/path", "not a URL"),
        ("https://ntfy.example/" + String(repeating: "a", count: 2048), "longer than 2048"),
        ("https://ntfy.example/t\r\nX-Evil: 1", "not a URL"),
    ])
    func aTargetURLThatIsNotHTTPSOrHoldsCredentialsIsRefused(url: String, reason: String) async throws {
        let service = try Self.service()
        let error = await #expect(throws: (any Error).self) {
            _ = try await service.setChannels(.init(ntfy: .set(NtfyChannel(url: url))))
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains(reason))
        #expect(try await service.channels().isEmpty)
    }

    @Test func plainHTTPIsAcceptedOnlyWhenLocalTargetsAre() async throws {
        let service = try Self.service(local: true)
        _ = try await service.setChannels(.init(ntfy: .set(NtfyChannel(url: "http://127.0.0.1:8099/topic"))))
        #expect(try await service.channels().ntfy?.url == "http://127.0.0.1:8099/topic")
    }

    @Test(arguments: [
        (p256dh: String(p256dh.dropLast(2)), auth: auth, field: "keys.p256dh"),
        (p256dh: base64URL(Data([5] + [UInt8](repeating: 7, count: 64))), auth: auth, field: "keys.p256dh"),
        (p256dh: "++++", auth: auth, field: "keys.p256dh"),
        (p256dh: p256dh, auth: base64URL(Data(repeating: 9, count: 15)), field: "keys.auth"),
        (p256dh: p256dh, auth: "!!", field: "keys.auth"),
    ])
    func subscriptionKeysOfTheWrongSizeOrFormAreRefused(p256dh: String, auth: String, field: String) async throws {
        let service = try Self.service()
        let error = await #expect(throws: MorningProofError.self) {
            try await service.subscribe(
                Self.subscription("https://push.example/1", p256dh: p256dh, auth: auth), at: Self.now)
        }
        #expect(error?.message.contains(field) == true)
        #expect(try await service.channels().isEmpty)
    }

    @Test func theOldestSubscriptionsGoPastTwenty() async throws {
        let service = try Self.service()
        for index in 0..<22 {
            try await service.subscribe(
                Self.subscription("https://push.example/\(index)"), at: Self.now.addingTimeInterval(Double(index)))
        }
        let endpoints = try await service.channels().pushSubscriptions.map(\.endpoint)
        #expect(endpoints == (2..<22).map { "https://push.example/\($0)" })
    }

    @Test func theWebhookSecretIsMadeOnceAndKeptWhileTheURLStays() async throws {
        let service = try Self.service()
        let first = try await service.setChannels(.init(webhookURL: .set("https://hooks.example/a")))
        let secret = try #require(first.newSecret)
        #expect(secret.count == 64 && secret.allSatisfy(\.isHexDigit))
        #expect(first.channels.webhook?.secret == secret)
        // Changing ntfy, or sending the same URL, keeps it (and shows nothing); a new URL gets a new one.
        let again = try await service.setChannels(
            .init(
                ntfy: .set(NtfyChannel(url: "https://ntfy.example/t", token: "tk_abc")),
                webhookURL: .set("https://hooks.example/a")))
        #expect(again.newSecret == nil && again.channels.webhook?.secret == secret)
        let moved = try await service.setChannels(.init(webhookURL: .set("https://hooks.example/b")))
        #expect(moved.newSecret != nil && moved.newSecret != secret)
        #expect(try await service.channels().ntfy == NtfyChannel(url: "https://ntfy.example/t", token: "tk_abc"))
        _ = try await service.setChannels(.init(ntfy: .remove))
        #expect(try await service.channels().ntfy == nil)
        #expect(try await service.channels().webhook?.url == "https://hooks.example/b")
    }

    @Test func aTokenWithSpacesOrTooLongIsRefused() async throws {
        let service = try Self.service()
        for token in ["", "tk 1", "tk\n1", String(repeating: "t", count: 257)] {
            await #expect(throws: MorningProofError.self) {
                _ = try await service.setChannels(
                    .init(ntfy: .set(NtfyChannel(url: "https://ntfy.example/t", token: token))))
            }
        }
        #expect(try await service.channels().isEmpty)
    }

    @Test func theTestMessageGoesToEveryChannelAndAGoneSubscriptionIsDeleted() async throws {
        let delivery = RecordingDelivery(outcomes: ["https://push.example/old": .gone])
        let service = try Self.service(delivery)
        try await service.subscribe(Self.subscription("https://push.example/old"), at: Self.now)
        try await service.subscribe(Self.subscription("https://push.example/new"), at: Self.now)
        _ = try await service.setChannels(
            .init(ntfy: .set(NtfyChannel(url: "https://ntfy.example/t")), webhookURL: .set("https://hooks.example/a")))
        let results = try await service.sendTest(accountID: 1, clock: Self.clock, now: Self.now, realNow: Self.now)
        #expect(results.map(\.channel) == [.webPush, .webPush, .ntfy, .webhook])
        #expect(results.map(\.outcome) == [.gone, .delivered, .delivered, .delivered])
        let sent = delivery.sent.withLock { $0 }
        #expect(sent.count == 1)
        #expect(sent.first?.0.event == .test)
        #expect(sent.first?.0.day == "2026-09-21")
        #expect(try await service.channels().pushSubscriptions.map(\.endpoint) == ["https://push.example/new"])
    }

    @Test func aTestWithNoChannelIsRefusedAndASecondWithinTenSecondsIsTooMany() async throws {
        let service = try Self.service()
        let none = await #expect(throws: MorningProofError.self) {
            _ = try await service.sendTest(accountID: 1, clock: Self.clock, now: Self.now, realNow: Self.now)
        }
        #expect(none?.kind == .conflict && none?.code == "no_channels")
        _ = try await service.setChannels(.init(webhookURL: .set("https://hooks.example/a")))
        _ = try await service.sendTest(accountID: 1, clock: Self.clock, now: Self.now, realNow: Self.now)
        let soon = await #expect(throws: MorningProofError.self) {
            _ = try await service.sendTest(
                accountID: 1, clock: Self.clock, now: Self.now, realNow: Self.now.addingTimeInterval(4))
        }
        #expect(soon?.kind == .tooManyRequests(retryAfter: 6))
        // Another account is not held up; the same one may test again after ten seconds.
        _ = try await service.sendTest(
            accountID: 2, clock: Self.clock, now: Self.now, realNow: Self.now.addingTimeInterval(4))
        _ = try await service.sendTest(
            accountID: 1, clock: Self.clock, now: Self.now, realNow: Self.now.addingTimeInterval(10))
    }

    @Test func theEventListReachesOneToNinetyDaysBack() async throws {
        let service = try Self.service()
        for days in [0, 91, -1] {
            await #expect(throws: MorningProofError.self) {
                _ = try await service.notifications(days: days, clock: Self.clock, now: Self.now)
            }
        }
        #expect(try await service.notifications(days: 90, clock: Self.clock, now: Self.now).isEmpty)
    }

    @Test(arguments: [
        ("mailto:ops@example.com", true), ("https://example.com/contact", true), ("mailto:me@localhost", false),
        ("https://localhost/x", false), ("mailto:", false), ("ops@example.com", false), ("http://example.com", false),
        ("mailto:a@127.0.0.1", false),
    ])
    func aPushContactIsAnAddressOrAnHTTPSURLNotLocalhost(contact: String, valid: Bool) {
        #expect(((try? PushContact.checked(contact)) != nil) == valid)
    }

    @Test func withoutARealSenderEveryChannelFailsAndSaysSo() async throws {
        let results = await UnconfiguredDelivery().deliver(
            NotificationEvent(event: .test, habit: "", day: LocalDay("2026-09-21")!, message: "m", at: "t"),
            to: AccountChannels(
                pushSubscriptions: [Self.subscription("https://push.example/1")],
                webhook: WebhookChannel(url: "https://hooks.example/a", secret: "s")))
        #expect(results.map(\.outcome) == [.failed, .failed])
        #expect(results.allSatisfy { $0.error == "delivery not configured on this server" })
    }
}
