import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

extension NotificationPass {
    /// One account's part of the pass: judge its goals when asked, claim its reminders due, take
    /// over its waiting events, and deliver each claim to its channels. An account with no channel
    /// gets its goals judged (the entries count) but claims nothing. Reminders and waiting events
    /// are claimed and delivered `deliveriesAtOnce` at a time, and none is claimed past
    /// `accountDeadline`: what is left waits for a later pass.
    func visit(_ work: Work, at now: Date, slow: @escaping @Sendable () -> Void = {}) async -> Report {
        var report = Report()
        report.accounts = 1
        guard let clock = work.profile.clock else { return report }
        let store = account(work.profile.id)
        let deadline = ContinuousClock.now.advanced(by: self.deadline)
        do {
            let channels = work.channels
            var delivered: Set<String> = []
            if work.judge || work.waiting {
                let judged = try await GoalJudge(store: store, clock: clock).judge(
                    at: now, realTime: realTime(), delivery: channels.isEmpty ? .queued : .now(lease: Self.lease),
                    claimed: { claim in
                        delivered.insert(claim.key + " " + claim.day.description)
                        report.add(try await self.deliver(claim, to: channels, store: store, slow: slow))
                    })
                report.completed += judged.completed.count
            }
            guard !channels.isEmpty else { return report }
            report.add(try await deliverClaimedAhead(work, store: store, slow: slow))
            let today = clock.day(at: now)
            var requests: [ClaimRequest] = []
            for habit in work.reminders {
                if let request = try await ReminderRule.request(
                    for: habit, in: store, clock: clock, now: now, knownUnsettled: true,
                    value: { goal in
                        try await store.metricValue(metric: goal.metric, day: today, activity: goal.activity)
                    })
                {
                    requests.append(request)
                }
            }
            if work.waiting {
                let reminded = Set(
                    requests.map { Self.slot($0.key, $0.day) } + work.claimed.map { Self.slot($0.key, $0.day) })
                for stored in try await store.notifications(since: today.adding(days: -GoalJudge.notifiedDays))
                where stored.state != .delivered && stored.attempts < NotificationClaimRule.maxAttemptsPerDay
                    && !delivered.contains(stored.key + " " + stored.day.description)
                    && !reminded.contains(stored.key + " " + stored.day.description)
                {
                    if let request = Self.retry(stored) { requests.append(request) }
                }
            }
            var next = requests.makeIterator()
            while ContinuousClock.now < deadline {
                var claims: [NotificationClaim] = []
                while claims.count < Self.deliveriesAtOnce, let request = next.next() {
                    if let claim = try await store.decideAndClaim(request, at: realTime(), lease: Self.lease).claim {
                        claims.append(claim)
                    }
                }
                if claims.isEmpty { break }
                report.add(try await deliverAtOnce(claims, to: channels, store: store, slow: slow))
            }
        } catch {
            report.failures.append("account \(work.profile.id): \(error)")
        }
        return report
    }

    /// Delivers `claims` side by side.
    func deliverAtOnce(
        _ claims: [NotificationClaim], to channels: AccountChannels, store: AccountStore,
        slow: @escaping @Sendable () -> Void
    ) async throws -> Report {
        try await withThrowingTaskGroup(of: Report.self) { group in
            for claim in claims {
                group.addTask { try await self.deliver(claim, to: channels, store: store, slow: slow) }
            }
            var report = Report()
            for try await one in group { report.add(one) }
            return report
        }
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
    ///
    /// The claim is marked delivered as soon as the first channel took the event, with no other
    /// await between the answer and the mark: a crash can then repeat only an event whose answer
    /// came but whose mark did not commit (docs/server.md, "What a crash can repeat").
    func deliver(
        _ claim: NotificationClaim, to channels: AccountChannels, store: AccountStore,
        slow: @escaping @Sendable () -> Void
    ) async throws -> Report {
        var report = Report()
        guard let event = NotificationEvent.decode(claim.event) else {
            try await store.markFailed(claim, error: "the stored event is not readable")
            return report
        }
        // A delivery still waiting after `slowAfter` gives the visit's place to the next account.
        let timer = Task {
            try await Task.sleep(for: Self.slowAfter)
            slow()
        }
        // Marked delivered the moment one channel took it, while the others may still answer.
        let marked = Locked<Result<Bool, any Error>?>(nil)
        let realTime = self.realTime
        let results = await delivery.deliver(
            event, to: channels,
            firstDelivered: {
                do {
                    let done = try await store.markDelivered(claim, at: realTime())
                    marked.withLock { $0 = .success(done) }
                } catch {
                    marked.withLock { $0 = .failure(error) }
                }
            })
        timer.cancel()
        if let mark = marked.withLock({ $0 }) {
            _ = try mark.get()
            report.delivered += 1
        }
        for result in results where result.outcome == .gone && result.channel == .webPush {
            do {
                if try await store.removePushSubscription(endpoint: result.target) { report.removedSubscriptions += 1 }
            } catch {
                report.failures.append("removing a gone push subscription: \(error)")
            }
        }
        guard report.delivered == 0 else { return report }
        let errors = results.filter { $0.outcome != .delivered }.map(ChannelResult.summary)
        let attempts = "attempt \(claim.attempt) of \(NotificationClaimRule.maxAttemptsPerDay)"
        let error = (errors.isEmpty ? "no channel took it" : errors.joined(separator: "; ")) + " (\(attempts))"
        try await store.markFailed(claim, error: error)
        report.failures.append("\(event.event.rawValue) for \(event.habit) on \(event.day): \(error)")
        return report
    }
}

extension ChannelResult {
    /// "webPush 410: gone", "ntfy: connection refused": one result in a line.
    static func summary(_ result: ChannelResult) -> String {
        "\(result.channel.rawValue)\(result.status.map { " \($0)" } ?? ""): \(result.error ?? result.outcome.rawValue)"
    }
}
