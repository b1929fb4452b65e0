import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Observer
import Testing

/// The pass's store as a queue that waits: each batch of reminders claimed ahead (`ReminderClaimStore`)
/// is 90 s old, past its 60 s lease, by the time its accounts' visits come (as when the visits waited
/// for a place behind slow accounts under load); and another server, running meanwhile, takes over
/// the claims of the accounts in `takenOver` and delivers them itself.
final class WaitingQueueStore: NotificationPassStore, ReminderClaimStore {
    let inner: any NotificationPassStore & ReminderClaimStore
    let account: @Sendable (Int64) -> NotificationPass.AccountStore
    let clock: MovingClock
    let takenOver: Set<Int64>
    /// The habits the other server delivered.
    let deliveredElsewhere = Locked([String]())

    init(
        _ fixture: PassFixture, clock: MovingClock, takenOver: Set<Int64>
    ) throws {
        inner = try #require(fixture.store as? any NotificationPassStore & ReminderClaimStore)
        account = fixture.account
        self.clock = clock
        self.takenOver = takenOver
    }

    func claimFirstReminders(_ reminders: [FirstReminder], zoneSteadySince: Date, at now: Date) async throws
        -> [NotificationClaim]
    {
        let claims = try await inner.claimFirstReminders(reminders, zoneSteadySince: zoneSteadySince, at: now)
        clock.now = clock.now.addingTimeInterval(90)
        for reminder in reminders where takenOver.contains(reminder.accountID) {
            let store = account(reminder.accountID)
            let request = ClaimRequest(
                key: reminder.key, day: reminder.day, event: reminder.event,
                condition: .habitHasNoEntry(habitID: reminder.habitID))
            guard
                let claim = try await store.decideAndClaim(request, at: clock.now, lease: NotificationPass.lease).claim
            else { continue }
            if try await store.markDelivered(claim, at: clock.now), let event = NotificationEvent.decode(claim.event) {
                deliveredElsewhere.withLock { $0.append(event.habit) }
            }
        }
        return claims
    }

    func renewClaims(_ claims: [NotificationClaim], at now: Date) async throws -> [NotificationClaim] {
        try await inner.renewClaims(claims, at: now)
    }

    func notifiableHabits() async throws -> [NotifiableHabit] { try await inner.notifiableHabits() }

    func settledSlots(_ slots: [NotificationSlot]) async throws -> Set<NotificationSlot> {
        try await inner.settledSlots(slots)
    }

    func accountsWithWaitingNotifications(since day: LocalDay) async throws -> [AccountProfile] {
        try await inner.accountsWithWaitingNotifications(since: day)
    }

    func notificationChannels(of accounts: [Int64]) async throws -> [Int64: AccountChannels] {
        try await inner.notificationChannels(of: accounts)
    }
}

/// Issue 38, point 3: reminders claimed in batches ahead of their accounts' visits stay exactly
/// once and on time however long the visits wait for their turn.
@Suite struct ReminderClaimWaitTests {
    /// Seven accounts visited two at a time, every batch of claims 90 s old (past the 60 s lease)
    /// when its visits come, and the claims of two accounts taken over by another server meanwhile:
    /// the five others are delivered by this pass (its 07:31), once, not given back as failed for a
    /// later one; the two taken over are delivered once, by the other server, and not again here.
    @Test(arguments: Engine.available) func claimsThatWaitedPastTheirLeaseAreDeliveredOnceOnTime(engine: Engine)
        async throws
    {
        try await PassFixture.with(engine) { fixture in
            var people: [NotificationPass.AccountStore] = []
            for n in 0..<7 {
                let person = try await fixture.person("p\(n)@example.com", zone: "UTC")
                _ = try await person.addHabit(NotificationPassTests.habit("Make bed \(n)", remindAt: 7 * 60 + 30))
                people.append(person)
            }
            let taken: Set<Int64> = [people[3].accountID, people[6].accountID]
            let clock = MovingClock(NotificationPassTests.at("2026-05-04T07:31:00Z"))
            let store = try WaitingQueueStore(fixture, clock: clock, takenOver: taken)
            let delivery = RecordingDelivery()
            let pass = NotificationPass(
                store: store, account: fixture.account, delivery: delivery, concurrency: 2,
                realTime: { clock.now }, accountDeadline: .seconds(3600))
            let report = try await pass.run(at: NotificationPassTests.at("2026-05-04T07:31:00Z"))
            let later = try await pass.run(at: NotificationPassTests.at("2026-05-04T07:45:00Z"))
            let here = await delivery.events.map(\.habit)
            let elsewhere = store.deliveredElsewhere.withLock { $0 }
            #expect(Set(elsewhere) == ["Make bed 3", "Make bed 6"], "the other server took over none")
            #expect(here.sorted() == ["Make bed 0", "Make bed 1", "Make bed 2", "Make bed 4", "Make bed 5"])
            #expect(report.delivered == 5 && report.failures.isEmpty, "\(report.failures)")
            #expect(later.delivered == 0 && later.failures.isEmpty, "\(later.failures)")
            for person in people {
                let stored = try await person.notifications(since: LocalDay("2026-05-04")!)
                let attempts = taken.contains(person.accountID) ? 2 : 1
                #expect(stored.map(\.state) == [.delivered] && stored.first?.attempts == attempts)
            }
        }
    }
}
