import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

/// The order a person sets for their habits (`HabitService.order`, `move`), on SQLite and on
/// PostgreSQL: lists and status follow it, a new habit comes last, a bad order changes nothing.
@Suite struct HabitOrderStoreTests {
    static let clock = DayClock(zoneIdentifier: "Europe/Istanbul")!

    @Test(arguments: Engine.available)
    func listsAndStatusFollowTheOrderAndANewHabitComesLast(engine: Engine) async throws {
        try await engine.withAccounts(["ada@example.com", "bo@example.com"]) { stores in
            let (ada, bo) = (stores[0], stores[1])
            let service = HabitService(database: ada, clock: Self.clock)
            let walk = try await ada.addHabit(Fixture.habit("Walk"))
            let read = try await ada.addHabit(Fixture.habit("Read"))
            let swim = try await ada.addHabit(Fixture.habit("Swim"))
            await #expect(try ada.habits().map(\.name) == ["Walk", "Read", "Swim"])

            let ordered = try await service.order([swim.id, walk.id, read.id])
            #expect(ordered.map(\.name) == ["Swim", "Walk", "Read"])
            await #expect(try ada.habits().map(\.name) == ["Swim", "Walk", "Read"])
            let today = try await ada.habitsToday(Fixture.day)
            #expect(today.habits.map(\.habit.name) == ["Swim", "Walk", "Read"])

            // A habit added afterwards comes last; moving it to the top keeps the others' order.
            _ = try await ada.addHabit(Fixture.habit("Stretch"))
            await #expect(try ada.habits().map(\.name) == ["Swim", "Walk", "Read", "Stretch"])
            let moved = try await service.move(named: "stretch", to: 1)
            #expect(moved.map(\.name) == ["Stretch", "Swim", "Walk", "Read"])
            try await service.move(named: "Stretch", to: 4)
            await #expect(
                try ada.habitsToday(Fixture.day).habits.map(\.habit.name) == ["Swim", "Walk", "Read", "Stretch"])
            // The other account's list is its own.
            _ = try await bo.addHabit(Fixture.habit("Row"))
            await #expect(try bo.habits().map(\.name) == ["Row"])
        }
    }

    @Test(arguments: Engine.available)
    func aBadOrderIsRefusedNamingWhatIsWrongAndChangesNothing(engine: Engine) async throws {
        try await engine.withAccounts(["ada@example.com", "bo@example.com"]) { stores in
            let (ada, bo) = (stores[0], stores[1])
            let service = HabitService(database: ada, clock: Self.clock)
            let walk = try await ada.addHabit(Fixture.habit("Walk"))
            let read = try await ada.addHabit(Fixture.habit("Read"))
            var old = try await ada.addHabit(Fixture.habit("Old"))
            old.archived = true
            try await ada.updateHabit(old)
            let bosRow = try await bo.addHabit(Fixture.habit("Row"))
            func refused(_ ids: [Int64], saying words: String) async {
                do {
                    try await service.order(ids)
                    Issue.record("\(ids) was taken")
                } catch let error as MorningProofError {
                    #expect(error.kind == .refused && error.message.contains(words), "\(error.message)")
                } catch {
                    Issue.record("\(ids): \(error)")
                }
            }
            await refused([walk.id], saying: "leaves out \"Read\"")
            await refused([walk.id, read.id, walk.id], saying: "\"Walk\" (id \(walk.id)) is listed twice")
            await refused([read.id, walk.id, old.id], saying: "\"Old\" (id \(old.id)) is archived")
            await refused([], saying: "leaves out")
            // Another account's id (or none) is not found, as anywhere else: its name is never said.
            await #expect(throws: StoreError.noHabit(bosRow.id)) {
                try await service.order([read.id, walk.id, bosRow.id])
            }
            await #expect(throws: StoreError.noHabit(999_999)) { try await service.order([read.id, walk.id, 999_999]) }
            // The store itself changes nothing for an id not the account's.
            await #expect(throws: StoreError.noHabit(bosRow.id)) { try await ada.setHabitOrder([read.id, bosRow.id]) }
            await #expect(try ada.habits().map(\.name) == ["Walk", "Read"])
            await #expect(try bo.habits().map(\.name) == ["Row"])
            await #expect(throws: MorningProofError.self) { try await service.move(named: "Walk", to: 3) }
            await #expect(throws: MorningProofError.self) { try await service.move(named: "Walk", to: 0) }
        }
    }

    /// Orders sent at once (two phones, or a double tap) end as one of them, never a mix, and none
    /// fails: on PostgreSQL each placed the rows in its own list's order, so that an order and its
    /// reverse deadlocked and one answered 503.
    @Test(arguments: Engine.available)
    func ordersAtOnceEndAsOneOfThemAndNoneFails(engine: Engine) async throws {
        try await engine.withAccounts(["ada@example.com"]) { stores in
            let ada = stores[0]
            let service = HabitService(database: ada, clock: Self.clock)
            var ids: [Int64] = []
            for number in 1...30 { ids.append(try await ada.addHabit(Fixture.habit("Habit \(number)")).id) }
            let orders = [ids, ids.reversed(), ids.shuffled(), ids.reversed()]
            for _ in 1...6 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for order in orders { group.addTask { try await service.order(order) } }
                    try await group.waitForAll()
                }
                let now = try await ada.habits().map(\.id)
                #expect(orders.contains(now), "\(now) mixes the orders sent")
            }
        }
    }
}
