import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// The server's notification pass over every account (`serve`'s pass every minute, `notify
/// --once`): the reminders due now, the at-most goals whose day has ended, and the events an
/// ingest or entry claimed but no pass has delivered yet, each delivered to the account's channels
/// once per habit and day — whichever server process claims it first, with the claim, lease, retry
/// and takeover rules `check` and `watch` use (`NotificationClaimRule`, the stores' `decideAndClaim`).
///
/// What is due is found set-based (`NotificationPassStore`: one read for the habits with a reminder
/// or a limit, one for the slots already settled, one for the accounts with events waiting); only
/// the accounts with something to do are then visited, `concurrency` at a time; a visit still
/// running after `slowAfter` gives its place to the next account, so that a slow or dead channel
/// holds up only its own account. One account's share of a pass is bounded: its first
/// `remindersPerAccount` habits with a reminder, `deliveriesAtOnce` deliveries at a time, nothing
/// new claimed past `accountDeadline`; and an account still being visited by an earlier pass is
/// skipped by the next one instead of being waited for (`busy`).
public struct NotificationPass: Sendable {
    /// One account's store: its habits, entries, metrics, notifications and channels.
    public typealias AccountStore = any PerAccountStore & NotificationChannelStore

    /// What a pass did.
    public struct Report: Sendable, Equatable, Codable {
        /// Accounts visited (with something due or waiting).
        public var accounts = 0
        /// Events delivered (to at least one channel).
        public var delivered = 0
        /// Deliveries that failed, each one line ("habit.reminder for Read on 2026-03-08: …").
        public var failures: [String] = []
        /// Push subscriptions removed because their push service said they are gone.
        public var removedSubscriptions = 0
        /// Goals completed by the judgement (at-most goals whose day ended, metric days waiting).
        public var completed = 0

        public init() {}

        mutating func add(_ other: Report) {
            accounts += other.accounts
            delivered += other.delivered
            failures += other.failures
            removedSubscriptions += other.removedSubscriptions
            completed += other.completed
        }
    }

    /// How long a claim is held before another pass may take it over: longer than any delivery
    /// (10 s per channel, channels in parallel).
    public static let lease: TimeInterval = 60

    /// Habits with a reminder that are reminded, per account: the first ones made (by id); a
    /// reminder set on a later habit is never sent (docs/server.md says so).
    public static let remindersPerAccount = 50

    /// Deliveries of one account under way at once, in a pass.
    public static let deliveriesAtOnce = 4

    /// How long one account's visit claims new events, in a pass: later ones wait for the next pass
    /// (the deliveries under way then end within their own 10 s timeout).
    public static let accountDeadline: Duration = .seconds(20)

    /// The accounts being visited, shared by every copy of this pass: a pass that starts while an
    /// earlier one is still visiting an account skips that account.
    let busy = Locked(Set<Int64>())

    let store: any NotificationPassStore
    /// The store's first claims of many accounts' reminders at once, when it has them.
    let reminderClaims: (any ReminderClaimStore)?
    let account: @Sendable (Int64) -> AccountStore
    let delivery: any ChannelDelivery
    let concurrency: Int
    let realTime: @Sendable () -> Date
    /// `accountDeadline`, or a test's.
    let deadline: Duration

    /// - Parameters:
    ///   - store: the database, across accounts.
    ///   - account: the same database seen as one account.
    ///   - delivery: where events go (Web Push, ntfy, webhooks).
    ///   - concurrency: accounts visited at once (those past `slowAfter` aside).
    ///   - realTime: stamps claims (`--now` may replay another instant; leases are about live processes).
    ///   - accountDeadline: how long a visit claims new events (`accountDeadline`; tests on a busy
    ///     machine give more).
    public init(
        store: any NotificationPassStore, account: @escaping @Sendable (Int64) -> AccountStore,
        delivery: any ChannelDelivery, concurrency: Int = 32, realTime: @escaping @Sendable () -> Date = { Date() },
        accountDeadline: Duration = NotificationPass.accountDeadline
    ) {
        self.deadline = accountDeadline
        self.store = store
        self.reminderClaims = store as? any ReminderClaimStore
        self.account = account
        self.delivery = delivery
        self.concurrency = max(1, concurrency)
        self.realTime = realTime
    }

    /// What one account has due in this pass.
    struct Work: Sendable {
        var profile: AccountProfile
        var reminders: [Habit] = []
        /// An at-most goal whose day just ended, or metric days to judge: run the goal judgement.
        var judge = false
        /// Events waiting for a pass.
        var waiting = false
        /// Its channels, read for every account of the pass at once.
        var channels = AccountChannels()
        /// Its first reminders, claimed with the next accounts' in one write (`claimAhead`), and when.
        var claimed: [NotificationClaim] = []
        var claimedAt: Date?
    }

    /// Runs one pass at `now`. Throws only when the database fails before any account is visited;
    /// an account whose visit fails is a line in `failures`, and the others go on.
    public func run(at now: Date) async throws -> Report {
        var work: [Int64: Work] = [:]
        var reminders: [NotificationSlot: NotifiableHabit] = [:]
        var limits: [NotificationSlot: NotifiableHabit] = [:]
        var earliest: LocalDay?
        var withReminder: [Int64: Int] = [:]
        for item in try await store.notifiableHabits() {
            guard let clock = item.account.clock else { continue }
            let habit = item.habit
            let today = clock.day(at: now)
            earliest = min(earliest ?? today, today)
            // The habits come in the order they were made, account by account.
            if habit.remindAt != nil { withReminder[item.account.id, default: 0] += 1 }
            if let remindAt = habit.remindAt, habit.createdDay <= today,
                withReminder[item.account.id, default: 0] <= Self.remindersPerAccount,
                ReminderRule.isDue(remindAt: remindAt, clock: clock, today: today, now: now)
            {
                reminders[
                    NotificationSlot(
                        habitID: habit.id, day: today, key: NotificationEvent.key(.reminder, habitID: habit.id))] = item
            }
            let yesterday = today.adding(days: -1)
            if habit.kind == .metric, habit.goal?.comparison == .atMost, habit.createdDay <= yesterday {
                limits[
                    NotificationSlot(
                        habitID: habit.id, day: yesterday, key: NotificationEvent.key(.goalMet, habitID: habit.id))] =
                    item
            }
        }
        let settled = try await store.settledSlots(Array(reminders.keys) + Array(limits.keys))
        for (slot, item) in reminders where !settled.contains(slot) {
            work[item.account.id, default: Work(profile: item.account)].reminders.append(item.habit)
        }
        for (slot, item) in limits where !settled.contains(slot) {
            work[item.account.id, default: Work(profile: item.account)].judge = true
        }
        // Events of the last days (an account's today is at most a day from UTC's).
        let since = (earliest ?? DayClock(timeZone: TimeZone(identifier: "UTC")!).day(at: now)).adding(
            days: -GoalJudge.notifiedDays - 1)
        for profile in try await store.accountsWithWaitingNotifications(since: since) {
            work[profile.id, default: Work(profile: profile)].waiting = true
        }
        let due = work.values.sorted { $0.profile.id < $1.profile.id }.map { work -> Work in
            var work = work
            work.reminders.sort { $0.id < $1.id }
            return work
        }
        // An account an earlier pass is still visiting is left to it.
        var mine = busy.withLock { busy in due.filter { busy.insert($0.profile.id).inserted } }
        do {
            let channels = try await store.notificationChannels(of: mine.map(\.profile.id))
            for index in mine.indices { mine[index].channels = channels[mine[index].profile.id] ?? AccountChannels() }
        } catch {
            busy.withLock { $0.subtract(mine.map(\.profile.id)) }
            throw error
        }
        let report = await visit(mine, at: now)
        busy.withLock { $0.subtract(mine.map(\.profile.id)) }
        return report
    }

    /// How long one delivery may wait on its channels while its visit holds one of the
    /// `concurrency` places: past it the visit goes on beside the others (at most
    /// `concurrency * 8` visits in all) and its place goes to the next account, so that endpoints
    /// that never answer, each held for the 10 s timeout, cannot starve the rest. Only time spent
    /// delivering counts: a visit slowed by the database (SQLite's one writer, a busy pool) keeps
    /// its place, so that a database-bound pass does not grow to `concurrency * 8` visits.
    public static let slowAfter: Duration = .seconds(2)

    private enum Signal: Sendable {
        case slow(Int)
        case done(Int, Report)
    }

    /// Visits the accounts: at most `concurrency` that have not waited `slowAfter` on a delivery,
    /// and at most `concurrency * 8` in all. The first reminders of the next `concurrency` accounts
    /// are claimed together just before the first of them is visited (`claimAhead`).
    private func visit(_ accounts: [Work], at now: Date) async -> Report {
        var accounts = accounts
        let inFlightLimit = concurrency * 8
        let (signals, continuation) = AsyncStream.makeStream(of: Signal.self)
        // Discarding: a finished visit's task is freed at once (a plain group keeps every child
        // until it is awaited, about 10 KB each: 110 MB more for 10,000 accounts).
        return await withDiscardingTaskGroup { group in
            var report = Report()
            var next = 0
            var claimedUpTo = 0
            var fast: Set<Int> = []
            var inFlight = 0
            func startWhatFits() async {
                while fast.count < concurrency, inFlight < inFlightLimit, next < accounts.count {
                    if next == claimedUpTo {
                        claimedUpTo = min(accounts.count, next + concurrency)
                        accounts[next..<claimedUpTo] = await claimAhead(
                            Array(accounts[next..<claimedUpTo]), at: now)[...]
                    }
                    let index = next
                    let work = accounts[index]
                    next += 1
                    fast.insert(index)
                    inFlight += 1
                    group.addTask {
                        let done = await visit(work, at: now, slow: { continuation.yield(.slow(index)) })
                        busy.withLock { _ = $0.remove(work.profile.id) }
                        continuation.yield(.done(index, done))
                    }
                }
            }
            await startWhatFits()
            if inFlight > 0 {
                for await signal in signals {
                    switch signal {
                    case .slow(let index): fast.remove(index)
                    case .done(let index, let done):
                        fast.remove(index)
                        inFlight -= 1
                        report.add(done)
                    }
                    await startWhatFits()
                    if inFlight == 0 { break }
                }
            }
            continuation.finish()
            return report
        }
    }
}
