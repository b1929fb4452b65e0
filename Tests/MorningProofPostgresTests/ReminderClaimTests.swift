import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Observer
import Testing

/// The first claims of many accounts' reminders in one write (`ReminderClaimStore`), which the
/// server's pass makes for the next accounts it visits: each claimed once, only while its habit is
/// its account's and empty that day, and never for an account whose zone just changed.
@Suite struct ReminderClaimTests {
    static let now = NotificationPassTests.at("2026-05-04T11:31:00Z")
    static let newYork = DayClock(zoneIdentifier: "America/New_York")!

    static func claims(_ fixture: PassFixture) throws -> any ReminderClaimStore {
        try #require(fixture.store as? any ReminderClaimStore)
    }

    static func reminder(_ habit: Habit, of account: NotificationPass.AccountStore) throws -> FirstReminder {
        try #require(ReminderRule.firstReminder(for: habit, accountID: account.accountID, clock: newYork, now: now))
    }

    @Test(arguments: Engine.available) func eachReminderIsClaimedOnceWhileItsHabitIsEmpty(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/New_York")
            let bob = try await fixture.person("bob@example.com", zone: "America/New_York")
            let bed = try await ada.addHabit(NotificationPassTests.habit("Make bed", remindAt: 7 * 60 + 30))
            let read = try await ada.addHabit(NotificationPassTests.habit("Read", remindAt: 7 * 60 + 30))
            let walk = try await bob.addHabit(NotificationPassTests.habit("Walk", remindAt: 7 * 60 + 30))
            try await ada.record(
                Entry(
                    habitID: read.id, day: LocalDay("2026-05-04")!, status: .done, source: .manual,
                    recordedAt: NotificationPassTests.at("2026-05-04T11:00:00Z"), zone: "America/New_York"))
            var bobsAsAdas = try Self.reminder(walk, of: bob)
            bobsAsAdas.accountID = ada.accountID
            let wanted = [
                try Self.reminder(bed, of: ada), try Self.reminder(read, of: ada), bobsAsAdas,
            ]
            let store = try Self.claims(fixture)
            let since = Self.now.addingTimeInterval(-3 * 24 * 3600)
            let first = try await store.claimFirstReminders(wanted, zoneSteadySince: since, at: Self.now)
            #expect(first.map(\.key) == [NotificationEvent.key(.reminder, habitID: bed.id)])
            #expect(first.first?.attempt == 1 && first.first?.event == wanted[0].event)
            #expect(try await store.claimFirstReminders(wanted, zoneSteadySince: since, at: Self.now).isEmpty)
            // The claim is held as `decideAndClaim`'s first: a visit's request for it gets nothing.
            let request = try #require(
                try await ReminderRule.request(
                    for: bed, in: ada, clock: Self.newYork, now: Self.now, value: { _ in nil }))
            #expect(try await ada.decideAndClaim(request, at: Self.now, lease: NotificationPass.lease).claim == nil)
            let claim = try #require(first.first)
            #expect(try await ada.markDelivered(claim, at: Self.now))
            let stored = try await ada.notifications(since: LocalDay("2026-05-04")!)
            #expect(stored.map(\.state) == [.delivered] && stored.first?.attempts == 1)
            #expect(try await bob.notifications(since: LocalDay("2026-05-04")!).isEmpty)
        }
    }

    @Test(arguments: Engine.available) func anAccountWhoseZoneJustChangedIsLeftToItsVisit(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/Chicago")
            let bed = try await ada.addHabit(NotificationPassTests.habit("Make bed", remindAt: 7 * 60 + 30))
            let moved = NotificationPassTests.at("2026-05-03T20:00:00Z")
            _ = try await fixture.store.changeProfile(
                of: ada.accountID, timeZone: "America/New_York", dayStart: nil, weekStart: nil,
                at: moved)
            let store = try Self.claims(fixture)
            let wanted = [try Self.reminder(bed, of: ada)]
            #expect(
                try await store.claimFirstReminders(
                    wanted, zoneSteadySince: moved.addingTimeInterval(-1), at: Self.now
                ).isEmpty)
            #expect(
                try await store.claimFirstReminders(
                    wanted, zoneSteadySince: moved.addingTimeInterval(1), at: Self.now
                ).count == 1)
        }
    }
}
