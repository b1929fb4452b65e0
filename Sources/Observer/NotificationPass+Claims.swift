import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

extension NotificationPass {
    /// How far back a change of zone or day start sends an account's reminders the per-account way
    /// (`ReminderRule.request`, which judges travel days): a change makes a travel day of a day
    /// within a day of it, so three days leave a margin.
    static let zoneChangeMargin: TimeInterval = 3 * 24 * 3600

    /// A claim made ahead of its visit is stamped again (`ReminderClaimStore.renewClaims`) when the
    /// visit comes to deliver it this long or more after it was made (its visit waited for a place
    /// behind slower accounts): the delivery then has a whole `lease` again, so no other pass can
    /// take it over while it is sent. A claim another pass took over meanwhile (older than its
    /// lease) is left to that pass. A visit that comes sooner (the usual case) saves the write: at
    /// least 50 s of the lease are left for a delivery bounded by its 10 s timeouts.
    static let renewAfter: TimeInterval = 10

    /// Claims, in one write, the first reminders of `accounts` with a channel (`deliveriesAtOnce` each
    /// at most, of daily habits with no goal: `ReminderRule.firstReminder`), and hands each account its
    /// claims; the reminders claimed leave its `reminders`. The rest, and everything when the write
    /// fails, is claimed by the account's visit as before (which then says what failed).
    func claimAhead(_ accounts: [Work], at now: Date) async -> [Work] {
        guard let claims = reminderClaims else { return accounts }
        var wanted: [FirstReminder] = []
        for work in accounts where !work.channels.isEmpty {
            guard let clock = work.profile.clock else { continue }
            wanted += work.reminders.lazy.compactMap {
                ReminderRule.firstReminder(for: $0, accountID: work.profile.id, clock: clock, now: now)
            }.prefix(Self.deliveriesAtOnce)
        }
        guard !wanted.isEmpty,
            case let claimedAt = realTime(),
            let made = try? await claims.claimFirstReminders(
                wanted, zoneSteadySince: now.addingTimeInterval(-Self.zoneChangeMargin), at: claimedAt)
        else { return accounts }
        let owners = Dictionary(wanted.map { (Self.slot($0.key, $0.day), ($0.accountID, $0.habitID)) }) { first, _ in
            first
        }
        var byAccount: [Int64: [NotificationClaim]] = [:]
        var habits: Set<Int64> = []
        for claim in made {
            guard let (account, habit) = owners[Self.slot(claim.key, claim.day)] else { continue }
            byAccount[account, default: []].append(claim)
            habits.insert(habit)
        }
        return accounts.map { work in
            guard let claims = byAccount[work.profile.id] else { return work }
            var work = work
            work.claimed = claims
            work.claimedAt = claimedAt
            work.reminders.removeAll { habits.contains($0.id) }
            return work
        }
    }

    /// Delivers the claims made ahead for `work`, side by side, once they are stamped again when
    /// they waited `renewAfter` or more for the visit; those another pass took over are left to it.
    func deliverClaimedAhead(
        _ work: Work, store: AccountStore, slow: @escaping @Sendable () -> Void
    ) async throws -> Report {
        guard !work.claimed.isEmpty, let claimedAt = work.claimedAt, let reminderClaims else { return Report() }
        var claims = work.claimed
        let now = realTime()
        if now.timeIntervalSince(claimedAt) >= Self.renewAfter {
            claims = try await reminderClaims.renewClaims(claims, at: now)
        }
        return try await deliverAtOnce(claims, to: work.channels, store: store, slow: slow)
    }

    /// "KEY DAY": a notification's slot among others of a pass.
    static func slot(_ key: String, _ day: LocalDay) -> String { key + " " + day.description }
}
