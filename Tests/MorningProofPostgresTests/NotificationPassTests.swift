import Foundation
import MorningProofCore
import MorningProofPostgres
import MorningProofService
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Observer
import Testing

/// Stands in for the HTTP channels: records each event, and answers what `outcome` says.
actor RecordingDelivery: ChannelDelivery {
    private(set) var events: [NotificationEvent] = []
    var outcome: ChannelResult.Outcome = .delivered

    func answer(_ outcome: ChannelResult.Outcome) { self.outcome = outcome }

    func deliver(_ event: NotificationEvent, to channels: AccountChannels) async -> [ChannelResult] {
        events.append(event)
        var results = channels.pushSubscriptions.map {
            ChannelResult(
                channel: .webPush, target: $0.endpoint, outcome: outcome, status: outcome == .gone ? 410 : nil,
                error: outcome == .delivered ? nil : "push service said no")
        }
        if let ntfy = channels.ntfy {
            results.append(
                ChannelResult(
                    channel: .ntfy, target: ntfy.url, outcome: outcome == .gone ? .failed : outcome,
                    error: outcome == .delivered ? nil : "connection refused"))
        }
        return results
    }
}

/// A store of either engine with the accounts' view and the pass's view of it.
struct PassFixture: Sendable {
    let store: any AccountStore & NotificationPassStore
    let account: @Sendable (Int64) -> NotificationPass.AccountStore

    static func with<T: Sendable>(_ engine: Engine, _ body: (PassFixture) async throws -> T) async throws -> T {
        switch engine {
        case .sqlite:
            let store = try AppDatabase.inMemory()
            return try await body(PassFixture(store: store, account: { store.scoped(to: $0) }))
        case .postgres:
            return try await TestPostgres.withStore { store in
                try await body(PassFixture(store: store, account: { store.scoped(to: $0) }))
            }
        }
    }

    /// An account in `zone` with an ntfy channel (so the pass has somewhere to deliver), and its store.
    func person(_ email: String, zone: String, dayStart: Int = 0, channel: Bool = true) async throws
        -> NotificationPass.AccountStore
    {
        let profile = try await Fixture.account(store, email, zone: zone)
        if dayStart != 0 {
            _ = try await store.changeProfile(of: profile.id, timeZone: nil, dayStart: dayStart, weekStart: nil, at: Fixture.noon)
        }
        let mine = account(profile.id)
        if channel { try await mine.setChannels(ntfy: NtfyChannel(url: "https://ntfy.example/\(profile.id)"), webhook: nil) }
        return mine
    }

    func pass(_ delivery: RecordingDelivery, realTime: @escaping @Sendable () -> Date = { Date() }) -> NotificationPass {
        NotificationPass(store: store, account: account, delivery: delivery, concurrency: 4, realTime: realTime)
    }
}

@Suite struct NotificationPassTests {
    static func at(_ text: String) -> Date { ISOInstant.parse(text)! }

    static func habit(_ name: String, remindAt: Int?, created: String = "2026-01-01") -> Habit {
        Habit(
            name: name, kind: .manual, remindAt: remindAt, createdDay: LocalDay(created)!,
            createdAt: at("2026-01-01T08:00:00Z"))
    }

    /// The instants of a pass every `minutes` from `start` to `end`, both included.
    static func passes(from start: String, to end: String, every minutes: Double = 15) -> [Date] {
        Array(stride(from: at(start).timeIntervalSince1970, through: at(end).timeIntervalSince1970, by: minutes * 60))
            .map { Date(timeIntervalSince1970: $0) }
    }

    /// Runs a pass at each instant; returns the instants at which something was delivered.
    static func deliveries(_ pass: NotificationPass, at instants: [Date]) async throws -> [Date] {
        var delivered: [Date] = []
        for instant in instants where try await pass.run(at: instant).delivered > 0 { delivered.append(instant) }
        return delivered
    }

    @Test(arguments: Engine.available) func aReminderComesOnceAtItsTime(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/New_York")
            _ = try await ada.addHabit(Self.habit("Make bed", remindAt: 7 * 60 + 30))
            let delivery = RecordingDelivery()
            let pass = fixture.pass(delivery)
            let delivered = try await Self.deliveries(
                pass, at: Self.passes(from: "2026-05-04T10:00:00Z", to: "2026-05-04T13:00:00Z", every: 1))
            // 07:30 in New York (EDT) is 11:30 UTC.
            #expect(delivered == [Self.at("2026-05-04T11:30:00Z")])
            let events = await delivery.events
            #expect(events.map(\.event) == [.reminder] && events.first?.habit == "Make bed")
            #expect(events.first?.day == "2026-05-04" && events.first?.message == "Make bed: not done yet today.")
        }
    }

    /// New York's 23-hour day (2026-03-08, 02:00 -> 03:00) and 25-hour day (2026-11-01, 01:00-02:00
    /// twice): a 02:30 reminder comes once, at 03:00 EDT, the first instant past it; a 01:30 one
    /// once, at its first occurrence (EDT).
    @Test(arguments: Engine.available) func remindersAcrossDaylightSavingChangesComeOnce(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/New_York")
            _ = try await ada.addHabit(Self.habit("Stretch", remindAt: 2 * 60 + 30))
            let bob = try await fixture.person("bob@example.com", zone: "America/New_York")
            _ = try await bob.addHabit(Self.habit("Read", remindAt: 60 + 30))
            let delivery = RecordingDelivery()
            let pass = fixture.pass(delivery)
            // Spring: 00:00 EST (05:00Z) to 05:00 EDT (09:00Z).
            let spring = try await Self.deliveries(
                pass, at: Self.passes(from: "2026-03-08T05:00:00Z", to: "2026-03-08T09:00:00Z"))
            #expect(spring == [Self.at("2026-03-08T06:30:00Z"), Self.at("2026-03-08T07:00:00Z")])
            // Autumn: 00:00 EDT (04:00Z) to 04:00 EST (09:00Z); 01:30 EDT is 05:30Z (and 01:30 EST,
            // 06:30Z, brings nothing), 02:30 EST is 07:30Z.
            let autumn = try await Self.deliveries(
                pass, at: Self.passes(from: "2026-11-01T04:00:00Z", to: "2026-11-01T09:00:00Z"))
            #expect(autumn == [Self.at("2026-11-01T05:30:00Z"), Self.at("2026-11-01T07:30:00Z")])
            let events = await delivery.events
            #expect(events.map { "\($0.habit) \($0.day) \($0.at)" } == [
                "Read 2026-03-08 2026-03-08T01:30:00-05:00", "Stretch 2026-03-08 2026-03-08T03:00:00-04:00",
                "Read 2026-11-01 2026-11-01T01:30:00-04:00", "Stretch 2026-11-01 2026-11-01T02:30:00-05:00",
            ])
        }
    }

    /// Days starting at 04:00: a 02:00 reminder belongs to the day that began the evening before.
    @Test(arguments: Engine.available) func aReminderBeforeTheDayStartFallsOnTheNextDate(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/New_York", dayStart: 4 * 60)
            _ = try await ada.addHabit(Self.habit("Lights out", remindAt: 2 * 60))
            let delivery = RecordingDelivery()
            let delivered = try await Self.deliveries(
                fixture.pass(delivery), at: Self.passes(from: "2026-05-04T12:00:00Z", to: "2026-05-05T09:00:00Z"))
            // 02:00 EDT on 05-05 (06:00Z) is the day 2026-05-04's.
            #expect(delivered == [Self.at("2026-05-05T06:00:00Z")])
            #expect(await delivery.events.map(\.day) == ["2026-05-04"])
        }
    }

    @Test(arguments: Engine.available) func aHabitDoneBeforeItsReminderGetsNone(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/New_York")
            let bed = try await ada.addHabit(Self.habit("Make bed", remindAt: 7 * 60 + 30))
            try await ada.record(
                Entry(
                    habitID: bed.id, day: LocalDay("2026-05-04")!, status: .done, source: .manual,
                    recordedAt: Self.at("2026-05-04T11:00:00Z"), zone: "America/New_York"))
            let delivery = RecordingDelivery()
            #expect(try await fixture.pass(delivery).run(at: Self.at("2026-05-04T12:00:00Z")).delivered == 0)
            #expect(await delivery.events.isEmpty)
            #expect(try await ada.notifications(since: LocalDay("2026-05-01")!).isEmpty)
        }
    }

    /// An account that flies from New York to Tokyo gets the next 07:30 reminder at 07:30 in Tokyo.
    @Test(arguments: Engine.available) func aTravellerIsRemindedInTheNewZone(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/New_York")
            _ = try await ada.addHabit(Self.habit("Make bed", remindAt: 7 * 60 + 30))
            let delivery = RecordingDelivery()
            let pass = fixture.pass(delivery)
            #expect(try await pass.run(at: Self.at("2026-05-04T11:31:00Z")).delivered == 1)
            _ = try await fixture.store.changeProfile(
                of: ada.accountID, timeZone: "Asia/Tokyo", dayStart: nil, weekStart: nil, at: Self.at("2026-05-04T20:00:00Z"))
            // 07:30 in Tokyo on 05-06 is 22:30Z on 05-05 (05-05 was the travel day).
            let delivered = try await Self.deliveries(
                pass, at: Self.passes(from: "2026-05-05T21:00:00Z", to: "2026-05-05T23:00:00Z"))
            #expect(delivered == [Self.at("2026-05-05T22:30:00Z")])
            #expect(await delivery.events.map(\.day) == ["2026-05-04", "2026-05-06"])
        }
    }

    /// A channel that keeps failing: tried after 1, 2, 4 and 8 minutes, then given up for the day.
    @Test(arguments: Engine.available) func aFailingChannelIsRetriedThenGivenUp(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/New_York")
            _ = try await ada.addHabit(Self.habit("Make bed", remindAt: 7 * 60 + 30))
            let delivery = RecordingDelivery()
            await delivery.answer(.failed)
            let clock = MovingClock(Self.at("2026-05-04T11:30:00Z"))
            let pass = fixture.pass(delivery, realTime: { clock.now })
            var failedAt: [Int] = []
            for minute in 0..<40 {
                clock.now = Self.at("2026-05-04T11:30:00Z").addingTimeInterval(Double(minute) * 60)
                if try await !pass.run(at: clock.now).failures.isEmpty { failedAt.append(minute) }
            }
            #expect(failedAt == [0, 1, 3, 7, 15])
            let stored = try await ada.notifications(since: LocalDay("2026-05-04")!)
            #expect(stored.map(\.state) == [.failed] && stored.first?.attempts == 5)
            #expect(stored.first?.lastError?.contains("connection refused (attempt 5 of 5)") == true)
            #expect(await delivery.events.count == 5)
        }
    }

    @Test(arguments: Engine.available) func aSubscriptionItsPushServiceCallsGoneIsRemoved(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/New_York", channel: false)
            let endpoint = "https://push.example/send/abc"
            try await ada.savePushSubscription(
                PushSubscription(endpoint: endpoint, p256dh: String(repeating: "A", count: 87), auth: "AAAAAAAAAAAAAAAAAAAAAA"),
                at: Self.at("2026-05-01T12:00:00Z"))
            _ = try await ada.addHabit(Self.habit("Make bed", remindAt: 7 * 60 + 30))
            let delivery = RecordingDelivery()
            await delivery.answer(.gone)
            let report = try await fixture.pass(delivery).run(at: Self.at("2026-05-04T11:31:00Z"))
            #expect(report.removedSubscriptions == 1 && report.delivered == 0)
            #expect(try await ada.notificationChannels().pushSubscriptions.isEmpty)
        }
    }

    @Test(arguments: Engine.available) func anAccountWithNoChannelClaimsNothing(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/New_York", channel: false)
            _ = try await ada.addHabit(Self.habit("Make bed", remindAt: 7 * 60 + 30))
            let delivery = RecordingDelivery()
            #expect(try await fixture.pass(delivery).run(at: Self.at("2026-05-04T11:31:00Z")).delivered == 0)
            #expect(try await ada.notifications(since: LocalDay("2026-05-01")!).isEmpty)
            #expect(await delivery.events.isEmpty)
        }
    }

    /// A pass that died mid-delivery (its claim held, never settled): the next passes leave the
    /// claim alone while its lease runs, then take it over and deliver it once.
    @Test(arguments: Engine.available) func aClaimOfAPassThatDiedIsTakenOverAfterItsLease(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/New_York")
            let bed = try await ada.addHabit(Self.habit("Make bed", remindAt: 7 * 60 + 30))
            let died = Self.at("2026-05-04T11:31:00Z")
            let clock = DayClock(zoneIdentifier: "America/New_York")!
            let request = try #require(
                try await ReminderRule.request(for: bed, in: ada, clock: clock, now: died, value: { _ in nil }))
            #expect(try await ada.decideAndClaim(request, at: died, lease: NotificationPass.lease).claim != nil)
            let realTime = MovingClock(died.addingTimeInterval(30))
            let delivery = RecordingDelivery()
            let pass = fixture.pass(delivery, realTime: { realTime.now })
            #expect(try await pass.run(at: realTime.now).delivered == 0)
            realTime.now = died.addingTimeInterval(NotificationPass.lease + 1)
            #expect(try await pass.run(at: realTime.now).delivered == 1)
            realTime.now = died.addingTimeInterval(NotificationPass.lease + 60)
            #expect(try await pass.run(at: realTime.now).delivered == 0)
            #expect(await delivery.events.map(\.habit) == ["Make bed"])
            let stored = try await ada.notifications(since: LocalDay("2026-05-04")!)
            #expect(stored.map(\.state) == [.delivered] && stored.first?.attempts == 2)
        }
    }

    /// A goal met on a phone with no channel yet is queued, the account is not visited again every
    /// minute for it, and the event goes out once a channel is added (the same day).
    @Test(arguments: Engine.available) func aQueuedGoalWaitsForAChannel(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/Chicago", channel: false)
            _ = try await ada.addHabit(
                Habit(
                    name: "Walk", kind: .metric, goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000),
                    createdDay: LocalDay("2026-04-01")!, createdAt: Self.at("2026-04-01T12:00:00Z")))
            _ = try await ada.storeMetrics(MetricAccountTests.stepsSoFar(8_412, day: "2026-05-04"), file: nil)
            let delivery = RecordingDelivery()
            let pass = fixture.pass(delivery)
            let noon = Self.at("2026-05-04T17:00:00Z")
            // The marked day is judged once (queued: no channel), then nothing is waiting to visit.
            #expect(try await pass.run(at: noon).accounts == 1)
            #expect(try await pass.run(at: noon.addingTimeInterval(60)).accounts == 0)
            #expect(try await ada.notifications(since: LocalDay("2026-05-04")!).map(\.attempts) == [0])
            try await ada.setChannels(ntfy: NtfyChannel(url: "https://ntfy.example/ada"), webhook: nil)
            #expect(try await pass.run(at: noon.addingTimeInterval(120)).delivered == 1)
            #expect(await delivery.events.map(\.habit) == ["Walk"])
        }
    }

    /// A goal met by data that arrived over HTTP (queued by the ingest) is delivered by the next
    /// pass, once; an at-most goal is judged, and its event delivered, once its day is over.
    @Test(arguments: Engine.available) func goalsQueuedByAnIngestAndLimitsAreDelivered(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            let ada = try await fixture.person("ada@example.com", zone: "America/Chicago")
            let walk = try await ada.addHabit(
                Habit(
                    name: "Walk", kind: .metric, goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000),
                    createdDay: LocalDay("2026-04-01")!, createdAt: Self.at("2026-04-01T12:00:00Z")))
            let cap = try await ada.addHabit(
                Habit(
                    name: "Screen steps cap", kind: .metric,
                    goal: MetricGoal(metric: "steps", comparison: .atMost, target: 20000),
                    createdDay: LocalDay("2026-04-01")!, createdAt: Self.at("2026-04-01T12:00:00Z")))
            _ = try await ada.storeMetrics(MetricAccountTests.stepsSoFar(8_412, day: "2026-05-04"), file: nil)
            let noon = Self.at("2026-05-04T17:00:00Z")
            let judged = try await GoalJudge(store: ada, clock: DayClock(zoneIdentifier: "America/Chicago")!).judge(
                at: noon, realTime: noon, delivery: .queued)
            #expect(judged.queued == 1)
            let delivery = RecordingDelivery()
            let pass = fixture.pass(delivery)
            #expect(try await pass.run(at: noon.addingTimeInterval(60)).delivered == 1)
            #expect(try await pass.run(at: noon.addingTimeInterval(120)).delivered == 0)
            // The next day (Chicago), the cap of 05-04 is judged met and delivered, once.
            let next = Self.at("2026-05-05T06:00:00Z")
            #expect(try await pass.run(at: next).delivered == 1)
            #expect(try await pass.run(at: next.addingTimeInterval(60)).delivered == 0)
            let events = await delivery.events
            #expect(events.map { "\($0.event.rawValue) \($0.habit) \($0.day)" } == [
                "goal.met Walk 2026-05-04", "goal.met Screen steps cap 2026-05-04",
            ])
            #expect(try await ada.entry(habitID: cap.id, day: LocalDay("2026-05-04")!)?.status == .done)
            #expect(try await ada.entry(habitID: walk.id, day: LocalDay("2026-05-04")!)?.value == 8_412)
        }
    }

    /// Two passes at the same instant over the same 40 accounts: every reminder delivered once.
    @Test(arguments: Engine.available) func twoPassesAtOnceDeliverEachReminderOnce(engine: Engine) async throws {
        try await PassFixture.with(engine) { fixture in
            for n in 0..<40 {
                let person = try await fixture.person("p\(n)@example.com", zone: "America/New_York")
                _ = try await person.addHabit(Self.habit("Make bed", remindAt: 7 * 60 + 30))
            }
            let delivery = RecordingDelivery()
            let now = Self.at("2026-05-04T11:31:00Z")
            async let first = fixture.pass(delivery).run(at: now)
            async let second = fixture.pass(delivery).run(at: now)
            let (a, b) = try await (first, second)
            #expect(a.delivered + b.delivered == 40)
            #expect(await delivery.events.count == 40)
        }
    }
}

/// Real time as a test moves it.
final class MovingClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant: Date
    init(_ start: Date) { instant = start }
    var now: Date {
        get { lock.withLock { instant } }
        set { lock.withLock { instant = newValue } }
    }
}
