import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Actions a phone recorded offline and sends later with the instant they happened: the day is the
/// one they were for, and the later action on a day wins whatever the order they arrive in. The same
/// assertions on SQLite and on PostgreSQL.
@Suite struct OfflineActionTests {
    let clock = DayClock(zoneIdentifier: "Europe/Istanbul")!
    /// 21:00 on 2026-05-01 in Istanbul, when the phone comes back online.
    let now = Fixture.hour(6)

    func withHabit(_ engine: Engine, _ body: (EntryService, Habit, any AccountData) async throws -> Void)
        async throws
    {
        try await engine.withAccounts(["ada@example.com"]) { stores in
            let habit = try await stores[0].addHabit(Fixture.habit("Walk", created: "2026-04-20"))
            try await body(EntryService(database: stores[0], clock: clock), habit, stores[0])
        }
    }

    @Test(arguments: Engine.available) func theLaterActionWinsWhateverTheArrivalOrder(engine: Engine) async throws {
        // The phone marked it done at 11:00; the laptop skipped it at 12:00.
        let phone = (EntryStatus.done, Fixture.hour(-4)), laptop = (EntryStatus.skipped, Fixture.hour(-3))
        for laptopFirst in [false, true] {
            try await withHabit(engine) { entries, habit, ada in
                var kinds: [EntryChange.Kind] = []
                for (status, at) in laptopFirst ? [laptop, phone] : [phone, laptop] {
                    kinds.append(try await entries.record(status, habit: habit, day: "today", now: now, at: at).kind)
                }
                let stored = try await ada.entry(habitID: habit.id, day: Fixture.day)
                #expect(stored?.status == .skipped)
                #expect(stored?.recordedAt == Fixture.hour(-3))
                #expect(kinds.last == (laptopFirst ? .superseded : .recorded(.replaced(previous: .done))))
            }
        }
    }

    /// A skip recorded offline at 11:00 and sent at 21:00 wins over the entry a goal recorded at
    /// 12:00 in between: a manual entry always wins over an automatic one, whenever it arrives.
    @Test(arguments: Engine.available) func aPersonsOfflineActionWinsOverANewerAutomaticEntry(engine: Engine)
        async throws
    {
        try await withHabit(engine) { entries, habit, ada in
            try await ada.record(Fixture.entry(habit.id, "2026-05-01", .done, source: .metric, at: Fixture.hour(-3)))
            let skip = try await entries.record(.skipped, habit: habit, day: "today", now: now, at: Fixture.hour(-4))
            #expect(skip.kind != .superseded)
            let stored = try await ada.entry(habitID: habit.id, day: Fixture.day)
            #expect(stored?.status == .skipped && stored?.source == .manual)
        }
    }

    @Test(arguments: Engine.available) func theLatestOfThreeWinsThoughItArrivedSecond(engine: Engine) async throws {
        try await withHabit(engine) { entries, habit, ada in
            // Done at 11:00, skipped at 12:00 on another device, done again at 13:00: the skip arrives last.
            _ = try await entries.record(.done, habit: habit, day: "today", now: now, at: Fixture.hour(-4))
            let again = try await entries.record(.done, habit: habit, day: "today", now: now, at: Fixture.hour(-2))
            #expect(again.kind == .recorded(.unchanged))
            let skip = try await entries.record(.skipped, habit: habit, day: "today", now: now, at: Fixture.hour(-3))
            #expect(skip.kind == .superseded)
            await #expect(try ada.entry(habitID: habit.id, day: Fixture.day)?.status == .done)
        }
    }

    @Test(arguments: Engine.available) func anOldUndoDoesNotClearANewerDoneNorAnOldDoneANewerUndo(engine: Engine)
        async throws
    {
        try await withHabit(engine) { entries, habit, ada in
            _ = try await entries.record(.done, habit: habit, day: "today", now: now, at: Fixture.hour(-3))
            let old = try await entries.undo(habit: habit, day: "today", now: now, at: Fixture.hour(-4))
            #expect(old.kind == .superseded)
            await #expect(try ada.entry(habitID: habit.id, day: Fixture.day)?.status == .done)

            let newer = try await entries.undo(habit: habit, day: "today", now: now, at: Fixture.hour(-2))
            guard case .cleared(let removed?, nil) = newer.kind else {
                Issue.record("the newer undo cleared nothing: \(newer.kind)")
                return
            }
            #expect(removed.status == .done)
            // A done from before the undo, sent after it, does not bring the day back.
            let late = try await entries.record(.done, habit: habit, day: "today", now: now, at: Fixture.hour(-2.5))
            #expect(late.kind == .superseded)
            await #expect(try ada.entry(habitID: habit.id, day: Fixture.day) == nil)
            // A later one does.
            let later = try await entries.record(.done, habit: habit, day: "today", now: now, at: Fixture.hour(-1))
            #expect(later.kind == .recorded(.recorded))
        }
    }

    @Test(arguments: Engine.available) func anActionSentTwiceIsAppliedOnce(engine: Engine) async throws {
        try await withHabit(engine) { entries, habit, ada in
            let at = Fixture.hour(-4)
            let first = try await entries.record(.done, habit: habit, day: "today", note: "park", now: now, at: at)
            let retry = try await entries.record(.done, habit: habit, day: "today", note: "park", now: now, at: at)
            #expect(first.kind == .recorded(.recorded))
            #expect(retry.kind == .recorded(.unchanged))
            let entry = try #require(try await ada.entry(habitID: habit.id, day: Fixture.day))
            #expect(entry.note == "park" && entry.recordedAt == at)
            await #expect(try ada.entries(habitID: habit.id).count == 1)

            let undo = try await entries.undo(habit: habit, day: "today", now: now, at: Fixture.hour(-3))
            let undoAgain = try await entries.undo(habit: habit, day: "today", now: now, at: Fixture.hour(-3))
            #expect(undo.kind != .superseded && undo.kind != .cleared(entry: nil, answer: nil))
            #expect(undoAgain.kind == .cleared(entry: nil, answer: nil))
        }
    }

    @Test(arguments: Engine.available) func todayIsTheDayTheActionHappenedOnInTheAccountsZone(engine: Engine)
        async throws
    {
        try await withHabit(engine) { entries, habit, ada in
            // 23:59 in Istanbul, sent at 00:05: it counts for the day before.
            let beforeMidnight = try ISOInstant.read("2026-05-01T23:59:00+03:00", field: "at")
            let afterMidnight = try ISOInstant.read("2026-05-02T00:05:00+03:00", field: "now")
            let late = try await entries.record(
                .done, habit: habit, day: "today", now: afterMidnight, at: beforeMidnight)
            #expect(late.day == LocalDay("2026-05-01"))
            let yesterday = try await entries.record(
                .skipped, habit: habit, day: "yesterday", now: afterMidnight, at: beforeMidnight)
            #expect(yesterday.day == LocalDay("2026-04-30"))
            #expect(
                try await entries.record(.done, habit: habit, day: "today", now: afterMidnight).day
                    == LocalDay("2026-05-02"))

            // An instant written with another zone's offset names Istanbul's day of that instant:
            // 15:30 at UTC-5 is 23:30 on the 1st in Istanbul, 16:30 is 00:30 on the 2nd.
            let evening = try ISOInstant.read("2026-05-01T15:30:00-05:00", field: "at")
            let night = try ISOInstant.read("2026-05-01T16:30:00-05:00", field: "at")
            let morning = try ISOInstant.read("2026-05-02T09:00:00+03:00", field: "now")
            let other = try await ada.addHabit(Fixture.habit("Read", created: "2026-04-20"))
            #expect(
                try await entries.record(.done, habit: other, day: "today", now: morning, at: evening).day
                    == LocalDay("2026-05-01"))
            #expect(
                try await entries.record(.done, habit: other, day: "today", now: morning, at: night).day
                    == LocalDay("2026-05-02"))
            await #expect(try ada.entry(habitID: other.id, day: LocalDay("2026-05-01")!)?.recordedAt == evening)
            // A day named outright must have begun by the instant: 23:59 on the 1st cannot act on the 2nd.
            let notBegun = await #expect(throws: MorningProofError.self) {
                try await entries.record(.done, habit: habit, day: "2026-05-02", now: afterMidnight, at: beforeMidnight)
            }
            #expect(notBegun?.kind == .refused)
        }
    }

    @Test(arguments: Engine.available) func anInstantInTheFutureIsRefusedBeyondTheSkew(engine: Engine) async throws {
        try await withHabit(engine) { entries, habit, ada in
            do {
                _ = try await entries.record(.done, habit: habit, day: "today", now: now, at: now + 600)
                Issue.record("an action ten minutes ahead was accepted")
            } catch let error as MorningProofError {
                #expect(error.kind == .refused && error.code == "future_instant")
            }
            let undo = await #expect(throws: MorningProofError.self) {
                try await entries.undo(habit: habit, day: "today", now: now, at: now + 600)
            }
            #expect(undo?.kind == .refused && undo?.code == "future_instant")
            await #expect(try ada.entries(habitID: habit.id).isEmpty)
            // Two minutes ahead is a phone's clock running fast: taken as now.
            _ = try await entries.record(.done, habit: habit, day: "today", now: now, at: now + 120)
            await #expect(try ada.entry(habitID: habit.id, day: Fixture.day)?.recordedAt == now)
        }
    }

    @Test(arguments: Engine.available) func theCheckinAnswerIsTheLastWritersToo(engine: Engine) async throws {
        try await engine.withAccounts(["ada@example.com"]) { stores in
            let checkins = CheckinService(database: stores[0], clock: clock)
            _ = try await checkins.setup(preset: nil, question: nil, now: Fixture.hour(-30))
            let no = try await checkins.answer(yes: false, now: now, at: Fixture.hour(-2))
            #expect(no.outcome == .answered)
            // A yes the phone recorded earlier, offline, loses to the later no.
            let earlierYes = try await checkins.answer(yes: true, now: now, at: Fixture.hour(-3))
            #expect(earlierYes.outcome == .superseded && !earlierYes.yes)
            let habit = try #require(try await checkins.habit())
            await #expect(try stores[0].entry(habitID: habit.id, day: Fixture.day) == nil)
            // An undo from before the answer does not clear it; a later yes changes it.
            let entries = EntryService(database: stores[0], clock: clock)
            #expect(
                try await entries.undo(habit: habit, day: "today", now: now, at: Fixture.hour(-2.5)).kind == .superseded
            )
            let laterYes = try await checkins.answer(yes: true, now: now, at: Fixture.hour(-1))
            #expect(laterYes.outcome == .changedToYes && laterYes.yes)
            #expect(laterYes.day == Fixture.day)
            await #expect(try stores[0].entry(habitID: habit.id, day: Fixture.day)?.recordedAt == Fixture.hour(-1))
        }
    }
}
