import Foundation
import GRDB
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Observer
import Testing

@testable import MorningProofSQLite

/// Answers delivered for every target but those containing "gone", which its push service calls
/// gone (404/410).
struct HalfGoneDelivery: ChannelDelivery {
    func deliver(_ event: NotificationEvent, to channels: AccountChannels) async -> [ChannelResult] {
        channels.pushSubscriptions.map {
            $0.endpoint.contains("gone")
                ? ChannelResult(channel: .webPush, target: $0.endpoint, outcome: .gone, status: 410)
                : ChannelResult(channel: .webPush, target: $0.endpoint, outcome: .delivered, status: 201)
        }
    }
}

/// One channel takes the event at once, another never answers (until `release()`, at most 1200 s).
final class TakenThenHangingDelivery: ChannelDelivery {
    private let released = Locked(false)
    private let told = Locked(false)

    func release() { released.withLock { $0 = true } }

    /// True once the pass has been told that the first channel took the event, and has done what it
    /// does then, while the other channel still has not answered.
    var firstDeliveredReturned: Bool { told.withLock { $0 } }

    func deliver(_ event: NotificationEvent, to channels: AccountChannels) async -> [ChannelResult] {
        await deliver(event, to: channels, firstDelivered: {})
    }

    func deliver(
        _ event: NotificationEvent, to channels: AccountChannels, firstDelivered: @escaping @Sendable () async -> Void
    ) async -> [ChannelResult] {
        await firstDelivered()
        told.withLock { $0 = true }
        let start = Date()
        while !released.withLock({ $0 }) && Date().timeIntervalSince(start) < 1200 {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return [
            ChannelResult(channel: .ntfy, target: "https://ntfy.example/a", outcome: .delivered, status: 200),
            ChannelResult(channel: .webhook, target: "https://hooks.example/a", outcome: .failed, error: "no answer"),
        ]
    }
}

/// One account's share of a pass (issue 38, points 3 and 10): how many of its reminders a pass
/// sends, that a later pass does not wait for it, and that a delivered event is marked delivered
/// before anything else is done with the answer.
@Suite struct NotificationPassShareTests {
    /// 55 habits with a 07:30 reminder: the first 50 made are reminded, the last 5 never.
    @Test(arguments: Engine.available) func onlyTheFirstFiftyHabitsWithAReminderAreReminded(engine: Engine) async throws
    {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "UTC")
            for n in 0..<55 {
                _ = try await ada.addHabit(NotificationPassTests.habit("Chore \(n)", remindAt: 7 * 60 + 30))
            }
            let delivery = RecordingDelivery()
            // No deadline to speak of: on a busy machine 50 deliveries may take more than 20 s.
            let pass = NotificationPass(
                store: fixture.store, account: fixture.account, delivery: delivery, accountDeadline: .seconds(3600))
            let first = try await pass.run(at: NotificationPassTests.at("2026-05-04T07:31:00Z"))
            let later = try await pass.run(at: NotificationPassTests.at("2026-05-04T09:00:00Z"))
            #expect(first.delivered == NotificationPass.remindersPerAccount && later.delivered == 0)
            let names = Set(await delivery.events.map(\.habit))
            #expect(names == Set((0..<50).map { "Chore \($0)" }))
        }
    }

    /// A pass that starts while an earlier one is still delivering to an account (its endpoint never
    /// answers) skips that account, so its next reminder (07:32) does not hold the later pass too.
    @Test(arguments: Engine.available) func aLaterPassSkipsAnAccountAnEarlierPassIsStillVisiting(engine: Engine)
        async throws
    {
        try await PassFixture.with(engine) { fixture in
            let stuck = try await fixture.person("stuck@example.com", zone: "UTC", channel: false)
            try await stuck.setChannels(ntfy: NtfyChannel(url: "https://hang.example/stuck"), webhook: nil)
            _ = try await stuck.addHabit(NotificationPassTests.habit("Make bed", remindAt: 7 * 60 + 30))
            _ = try await stuck.addHabit(NotificationPassTests.habit("Read", remindAt: 7 * 60 + 32))
            let delivery = HangingDelivery()
            let pass = NotificationPass(store: fixture.store, account: fixture.account, delivery: delivery)
            let first = Task { try await pass.run(at: NotificationPassTests.at("2026-05-04T07:31:00Z")) }
            while delivery.hanging == 0 { try await Task.sleep(for: .milliseconds(20)) }
            let secondDone = Locked(false)
            let second = Task {
                defer { secondDone.withLock { $0 = true } }
                return try await pass.run(at: NotificationPassTests.at("2026-05-04T07:33:00Z"))
            }
            // A pass that visits the stuck account hangs with it (until released, at most 1200 s);
            // one that skips it ends. Either comes, however long the suite keeps the pass waiting.
            let start = Date()
            while delivery.hanging < 2 && !secondDone.withLock({ $0 }) && Date().timeIntervalSince(start) < 1200 {
                try await Task.sleep(for: .milliseconds(100))
            }
            let hangingBeforeRelease = delivery.hanging
            delivery.release()
            let (early, late) = (try await first.value, try await second.value)
            #expect(hangingBeforeRelease == 1, "the later pass waited on the stuck account")
            #expect(early.accounts == 1 && late.accounts == 0)
        }
    }

    /// Point 10: the claim is marked delivered as soon as the send's answer came, before the gone
    /// subscription is removed. The database here refuses the removal (as a crash at that moment
    /// would stop it): the event is still recorded as delivered, so no later pass sends it again.
    @Test func theClaimIsMarkedDeliveredBeforeAnythingElseIsDone() async throws {
        let store = try AppDatabase.inMemory()
        let fixture = PassFixture(store: store, account: { store.scoped(to: $0) })
        let ada = try await fixture.person("ada@example.com", zone: "UTC", channel: false)
        let keys = (p256dh: String(repeating: "A", count: 87), auth: "AAAAAAAAAAAAAAAAAAAAAA")
        for endpoint in ["https://push.example/ok", "https://push.example/gone"] {
            try await ada.savePushSubscription(
                PushSubscription(endpoint: endpoint, p256dh: keys.p256dh, auth: keys.auth),
                at: NotificationPassTests.at("2026-05-01T12:00:00Z"))
        }
        _ = try await ada.addHabit(NotificationPassTests.habit("Make bed", remindAt: 7 * 60 + 30))
        try await store.writer.write { db in
            try db.execute(
                sql:
                    "CREATE TRIGGER keep BEFORE DELETE ON pushSubscription BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;"
            )
        }
        let pass = NotificationPass(store: store, account: fixture.account, delivery: HalfGoneDelivery())
        let report = try await pass.run(at: NotificationPassTests.at("2026-05-04T07:31:00Z"))
        let stored = try await ada.notifications(since: LocalDay("2026-05-04")!)
        #expect(stored.map(\.state) == [.delivered], "\(report.failures)")
        #expect(report.delivered == 1 && report.failures.count == 1)
    }

    /// Point 10: the claim is marked delivered when the first channel took the event, while another
    /// channel is still waiting for its answer (a kill then would not send it again).
    @Test(arguments: Engine.available) func theClaimIsMarkedDeliveredWhileASlowChannelStillAnswers(engine: Engine)
        async throws
    {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "UTC")
            _ = try await ada.addHabit(NotificationPassTests.habit("Make bed", remindAt: 7 * 60 + 30))
            let delivery = TakenThenHangingDelivery()
            let pass = NotificationPass(store: fixture.store, account: fixture.account, delivery: delivery)
            let running = Task { try await pass.run(at: NotificationPassTests.at("2026-05-04T07:31:00Z")) }
            // No bound on the pass's speed: in the full suite its tasks may wait minutes for a
            // thread. What counts is the order: the mark is there once the pass has been told,
            // while the slow channel still hangs (it hangs until released, at most 1200 s).
            let start = Date()
            while !delivery.firstDeliveredReturned && Date().timeIntervalSince(start) < 1200 {
                try await Task.sleep(for: .milliseconds(50))
            }
            let states = try await ada.notifications(since: LocalDay("2026-05-04")!).map(\.state)
            delivery.release()
            let report = try await running.value
            #expect(states == [.delivered], "not marked delivered while the slow channel answered")
            #expect(report.delivered == 1)
        }
    }
}
