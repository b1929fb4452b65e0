import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

extension NotificationPass {
    /// One account's part of the pass: judge its goals when asked, claim its reminders due, take
    /// over its waiting events, and deliver each claim to its channels. An account with no channel
    /// gets its goals judged (the entries count) but claims nothing.
    func visit(_ work: Work, at now: Date, slow: @escaping @Sendable () -> Void = {}) async -> Report {
        var report = Report()
        report.accounts = 1
        guard let clock = work.profile.clock else { return report }
        let store = account(work.profile.id)
        do {
            let channels = try await store.notificationChannels()
            var delivered: Set<String> = []
            let deliver: (NotificationClaim) async throws -> Void = { claim in
                delivered.insert(claim.key + " " + claim.day.description)
                try await self.deliver(claim, to: channels, store: store, report: &report, slow: slow)
            }
            if work.judge || work.waiting {
                let judged = try await GoalJudge(store: store, clock: clock).judge(
                    at: now, realTime: realTime(), delivery: channels.isEmpty ? .queued : .now(lease: Self.lease),
                    claimed: deliver)
                report.completed += judged.completed.count
            }
            guard !channels.isEmpty else { return report }
            let today = clock.day(at: now)
            for habit in work.reminders {
                guard
                    let request = try await ReminderRule.request(
                        for: habit, in: store, clock: clock, now: now, knownUnsettled: true,
                        value: { goal in try await store.metricValue(metric: goal.metric, day: today, activity: goal.activity) })
                else { continue }
                if let claim = try await store.decideAndClaim(request, at: realTime(), lease: Self.lease).claim {
                    try await deliver(claim)
                }
            }
            if work.waiting {
                for stored in try await store.notifications(since: today.adding(days: -GoalJudge.notifiedDays))
                where stored.state != .delivered && stored.attempts < NotificationClaimRule.maxAttemptsPerDay
                    && !delivered.contains(stored.key + " " + stored.day.description)
                {
                    guard let request = Self.retry(stored) else { continue }
                    if let claim = try await store.decideAndClaim(request, at: realTime(), lease: Self.lease).claim {
                        try await deliver(claim)
                    }
                }
            }
        } catch {
            report.failures.append("account \(work.profile.id): \(error)")
        }
        return report
    }

    /// The request that takes a waiting event over: its stored event, and for a reminder the
    /// condition that the habit is still empty that day.
    static func retry(_ stored: StoredNotification) -> ClaimRequest? {
        guard let (kind, habitID) = NotificationEvent.parse(key: stored.key) else { return nil }
        return ClaimRequest(
            key: stored.key, day: stored.day, event: stored.event,
            condition: kind == .reminder ? .habitHasNoEntry(habitID: habitID) : .always)
    }

    /// Delivers a claimed event to every channel: delivered when one channel took it (the others'
    /// errors are noted), failed otherwise, for a later pass to try again after the back-off. A
    /// subscription its push service calls gone is removed.
    func deliver(
        _ claim: NotificationClaim, to channels: AccountChannels, store: AccountStore, report: inout Report,
        slow: @escaping @Sendable () -> Void
    ) async throws {
        guard let event = NotificationEvent.decode(claim.event) else {
            try await store.markFailed(claim, error: "the stored event is not readable")
            return
        }
        // A delivery still waiting after `slowAfter` gives the visit's place to the next account.
        let timer = Task {
            try await Task.sleep(for: Self.slowAfter)
            slow()
        }
        let results = await delivery.deliver(event, to: channels)
        timer.cancel()
        for result in results where result.outcome == .gone && result.channel == .webPush {
            if try await store.removePushSubscription(endpoint: result.target) { report.removedSubscriptions += 1 }
        }
        let errors = results.filter { $0.outcome != .delivered }.map(ChannelResult.summary)
        if results.contains(where: { $0.outcome == .delivered }) {
            _ = try await store.markDelivered(claim, at: realTime())
            report.delivered += 1
            return
        }
        let attempts = "attempt \(claim.attempt) of \(NotificationClaimRule.maxAttemptsPerDay)"
        let error = (errors.isEmpty ? "no channel took it" : errors.joined(separator: "; ")) + " (\(attempts))"
        try await store.markFailed(claim, error: error)
        report.failures.append("\(event.event.rawValue) for \(event.habit) on \(event.day): \(error)")
    }
}

extension ChannelResult {
    /// "webPush 410: gone", "ntfy: connection refused": one result in a line.
    static func summary(_ result: ChannelResult) -> String {
        "\(result.channel.rawValue)\(result.status.map { " \($0)" } ?? ""): \(result.error ?? result.outcome.rawValue)"
    }
}
