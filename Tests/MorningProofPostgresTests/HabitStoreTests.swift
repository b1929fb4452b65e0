import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// Habits and their days: the same assertions on SQLite and on PostgreSQL.
@Suite struct HabitStoreTests {
    @Test(arguments: Engine.available)
    func habitsAreUniqueInAnyCaseAndAnotherAccountsAreNotFound(engine: Engine) async throws {
        try await engine.withAccounts(["ada@example.com", "bo@example.com"]) { stores in
            let (ada, bo) = (stores[0], stores[1])
            let walk = try await ada.addHabit(Fixture.habit("Walk"))
            #expect(walk.id > 0)
            await #expect(try ada.habit(id: walk.id) == walk)
            await #expect(throws: StoreError.habitNameTaken("wALK", by: "Walk")) { try await ada.addHabit(Fixture.habit("wALK")) }
            await #expect(throws: StoreError.blankHabitName("  ")) { try await ada.addHabit(Fixture.habit("  ")) }
            // Another account may use the same name.
            let bosWalk = try await bo.addHabit(Fixture.habit("walk"))

            var read = try await ada.addHabit(Fixture.habit("Read", kind: .metric))
            read.name = "WALK"
            await #expect(throws: StoreError.habitNameTaken("WALK", by: "Walk")) { try await ada.updateHabit(read) }
            read.name = "Read books"
            read.schedule = .timesPerWeek(3)
            read.goal = MetricGoal(metric: "steps", comparison: .atLeast, target: 8000, activity: nil)
            read.remindAt = 450
            read.required = true
            read.note = "before bed"
            read.archived = true
            try await ada.updateHabit(read)
            await #expect(try ada.habits() == [walk])
            await #expect(try ada.habits(includeArchived: true) == [walk, read])
            await #expect(try ada.findHabit(named: "read").name == "Read books")
            await #expect(throws: StoreError.self) { try await ada.findHabit(named: "Swim") }

            // Not read, changed, recorded or removed through another account.
            await #expect(try bo.habit(id: walk.id) == nil)
            var renamed = walk
            renamed.name = "Mine"
            await #expect(throws: StoreError.noHabit(walk.id)) { try await bo.updateHabit(renamed) }
            await #expect(throws: StoreError.noHabit(walk.id)) { try await bo.entries(habitID: walk.id) }
            await #expect(throws: StoreError.noHabit(walk.id)) { try await bo.entry(habitID: walk.id, day: Fixture.day) }
            await #expect(throws: StoreError.noHabit(walk.id)) { try await bo.record(Fixture.entry(walk.id, "2026-05-01")) }
            await #expect(throws: StoreError.noHabit(walk.id)) { try await bo.clearDay(habitID: walk.id, day: Fixture.day) }
            await #expect(throws: StoreError.noHabit(walk.id)) { try await bo.removeHabit(id: walk.id) }
            await #expect(try ada.habit(id: walk.id) == walk)

            try await ada.record(Fixture.entry(walk.id, "2026-05-01"))
            await #expect(try ada.removeHabit(id: walk.id) == 1)
            await #expect(try ada.habit(id: walk.id) == nil)
            await #expect(try bo.habits() == [bosWalk])
        }
    }

    @Test(arguments: Engine.available)
    func ofTwelveSimultaneousAddsOfOneNameExactlyOneIsStored(engine: Engine) async throws {
        try await engine.withAccounts(["ada@example.com"]) { stores in
            let ada = stores[0]
            let outcomes = Locked([Result<Habit, any Error>]())
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        let outcome: Result<Habit, any Error>
                        do {
                            outcome = .success(
                                try await ada.addHabit(Fixture.habit(index.isMultiple(of: 2) ? "Walk" : "WALK")))
                        } catch {
                            outcome = .failure(error)
                        }
                        outcomes.withLock { $0.append(outcome) }
                    }
                }
            }
            let stored = try await ada.habits()
            #expect(stored.count == 1)
            let all = outcomes.withLock { $0 }
            #expect(all.count(where: { (try? $0.get()) != nil }) == 1)
            for outcome in all {
                switch outcome {
                case .success(let habit): #expect(habit == stored.first)
                case .failure(let error):
                    let refusal = error as? StoreError
                    #expect(refusal?.code == .conflict && refusal?.value.lowercased() == "walk", "\(error)")
                }
            }
        }
    }

    @Test(arguments: Engine.available)
    func daysAreDoneSkippedAndUndoneAndAManualEntryWins(engine: Engine) async throws {
        try await engine.withAccounts(["ada@example.com"]) { stores in
            let ada = stores[0]
            let walk = try await ada.addHabit(Fixture.habit("Walk", created: "2026-04-28"))
            await #expect(try ada.record(Fixture.entry(walk.id, "2026-04-28", .skipped)) == .recorded)
            await #expect(try ada.record(Fixture.entry(walk.id, "2026-04-28")) == .replaced(previous: .skipped))
            await #expect(try ada.record(Fixture.entry(walk.id, "2026-04-28")) == .unchanged)
            // A manual entry wins over an automatic one; a manual one replaces an automatic one.
            await #expect(try ada.record(Fixture.entry(walk.id, "2026-04-28", .skipped, source: .photo)) == .keptManual)
            await #expect(try ada.record(Fixture.entry(walk.id, "2026-04-29", source: .checkin)) == .recorded)
            await #expect(try ada.record(Fixture.entry(walk.id, "2026-04-29", .skipped)) == .replaced(previous: .done))
            let full = Entry(
                habitID: walk.id, day: LocalDay("2026-04-30")!, status: .done, value: 8412.5, source: .manual,
                note: "around the lake", recordedAt: Fixture.hour(1), zone: "Europe/Istanbul")
            try await ada.record(full)
            await #expect(try ada.entry(habitID: walk.id, day: full.day) == full)
            await #expect(
                try await ada.entries(habitID: walk.id).map { "\($0.day) \($0.status) \($0.source)" } == [
                    "2026-04-28 done manual", "2026-04-29 skipped manual", "2026-04-30 done manual",
                ])

            let cleared = try await ada.clearDay(habitID: walk.id, day: LocalDay("2026-04-29")!)
            #expect(cleared.entry?.status == .skipped && cleared.answer == nil)
            await #expect(try ada.entry(habitID: walk.id, day: LocalDay("2026-04-29")!) == nil)
            await #expect(
                try await ada.clearDay(habitID: walk.id, day: LocalDay("2026-04-29")!) == ClearedDay(entry: nil, answer: nil))
            let progress = try await ada.progress(of: walk, today: LocalDay("2026-04-30")!, need: .summary)
            #expect(progress.timeline.currentStreak == 1 && progress.timeline.totalDone == 2)
            #expect(progress.state == .done)
        }
    }

    @Test(arguments: Engine.available)
    func aPhotoRepeatedTheNextDayIsRefusedAndStoresNothing(engine: Engine) async throws {
        try await engine.withAccounts(["ada@example.com", "bo@example.com"]) { stores in
            let (ada, bo) = (stores[0], stores[1])
            let bed = try await ada.addHabit(Fixture.habit("Make bed", kind: .photo))
            let photo = Fixture.evidence(hash: 0x0F0F_0F0F_0F0F_0F0F)
            let limit = ProofPolicy.maxHashDistance
            await #expect(
                try await ada.recordProof(
                    Fixture.entry(bed.id, "2026-05-01", source: .photo), evidence: photo, maxDistance: limit)
                    == .recorded(.recorded))
            // The same photo again the same day changes nothing and is no repeat.
            await #expect(
                try await ada.recordProof(
                    Fixture.entry(bed.id, "2026-05-01", source: .photo), evidence: photo, maxDistance: limit)
                    == .recorded(.unchanged))
            let nextDay = Fixture.entry(bed.id, "2026-05-02", source: .photo)
            await #expect(
                try await ada.recordProof(nextDay, evidence: photo, maxDistance: limit)
                    == .duplicate(EvidenceMatch(day: Fixture.day, habitID: bed.id, sameFile: true, distance: 0)))
            // Another file of nearly the same picture (two bits apart) is a repeat too.
            var similar = Fixture.evidence(hash: 0x0F0F_0F0F_0F0F_0F0C)
            similar.sha256 = String(repeating: "b", count: 64)
            await #expect(
                try await ada.recordProof(nextDay, evidence: similar, maxDistance: limit)
                    == .duplicate(EvidenceMatch(day: Fixture.day, habitID: bed.id, sameFile: false, distance: 2)))
            await #expect(try ada.entry(habitID: bed.id, day: nextDay.day) == nil)
            // Another person's photo says nothing about this one's.
            let bosBed = try await bo.addHabit(Fixture.habit("Make bed", kind: .photo))
            await #expect(
                try await bo.recordProof(
                    Fixture.entry(bosBed.id, "2026-05-02", source: .photo), evidence: photo, maxDistance: limit)
                    == .recorded(.recorded))
            await #expect(throws: StoreError.noHabit(bed.id)) {
                try await bo.recordProof(nextDay, evidence: Fixture.evidence(hash: 0), maxDistance: limit)
            }
        }
    }

    @Test(arguments: Engine.available)
    func aCheckinYesStandsForTheDay(engine: Engine) async throws {
        try await engine.withAccounts(["ada@example.com", "bo@example.com"]) { stores in
            let (ada, bo) = (stores[0], stores[1])
            let checkin = try await ada.addHabit(Fixture.habit("Morning check-in", kind: .checkin))
            let (first, second) = (Fixture.day, LocalDay("2026-05-02")!)
            func answer(_ yes: Bool, _ hours: Double) async throws -> CheckinOutcome {
                try await ada.answerCheckin(
                    habitID: checkin.id, day: first, yes: yes, at: Fixture.hour(hours), zone: "Europe/Istanbul")
            }
            await #expect(try answer(false, 0) == .answered)
            await #expect(try ada.checkinAnswer(habitID: checkin.id, day: first)?.yes == false)
            await #expect(try ada.entry(habitID: checkin.id, day: first) == nil)
            await #expect(try answer(true, 1) == .changedToYes)
            await #expect(try answer(false, 2) == .yesStands)
            await #expect(try answer(true, 3) == .unchanged)
            await #expect(
                try await ada.checkinAnswer(habitID: checkin.id, day: first)
                    == CheckinAnswer(habitID: checkin.id, day: first, yes: true, answeredAt: Fixture.hour(1)))
            await #expect(try ada.entry(habitID: checkin.id, day: first)?.source == .checkin)

            // A done entry recorded another way answers yes.
            try await ada.record(Fixture.entry(checkin.id, "2026-05-02", at: Fixture.hour(30)))
            let doneThen = CheckinAnswer(habitID: checkin.id, day: second, yes: true, answeredAt: Fixture.hour(30))
            await #expect(try ada.checkinAnswer(habitID: checkin.id, day: second) == doneThen)
            await #expect(try ada.lastCheckinAnswer(habitID: checkin.id) == doneThen)
            await #expect(try bo.checkinAnswer(habitID: checkin.id, day: first) == nil)
            await #expect(throws: StoreError.noHabit(checkin.id)) {
                try await bo.answerCheckin(habitID: checkin.id, day: first, yes: true, at: Fixture.noon, zone: "UTC")
            }

            let cleared = try await ada.clearDay(habitID: checkin.id, day: first)
            #expect(cleared.answer?.yes == true && cleared.entry?.status == .done)
            await #expect(try ada.checkinAnswer(habitID: checkin.id, day: first) == nil)
        }
    }
}
