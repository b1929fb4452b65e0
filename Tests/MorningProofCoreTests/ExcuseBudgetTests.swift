import Foundation
import Testing

@testable import MorningProofCore

@Suite("Excuse budget")
struct ExcuseBudgetTests {
    let monday = day("2026-03-02")

    @Test("unlocks and skips of required habits spend; empty travel days take what is left, the rest are missed")
    func travelDaysTakeWhatIsLeft() {
        let bed = ExcuseBudget.RequiredHabit(id: 1, firstDay: day("2026-02-01"))
        let run = ExcuseBudget.RequiredHabit(id: 2, firstDay: day("2026-02-01"))
        let budget = ExcuseBudget(
            perWeek: 2, unlockDays: [monday], required: [bed, run],
            entries: [
                (1, monday.adding(days: 1), .skipped), (2, monday.adding(days: 3), .done), (3, monday, .skipped),
            ],
            travelDays: [monday.adding(days: 3), monday.adding(days: 7)])
        // Thursday: bed's empty travel day finds none left (Monday's unlock, Tuesday's skip); run was done.
        // The next Monday, both are empty: Monday's unlock is back, so bed (first by id) takes it, run misses.
        #expect(budget.missedTravel == [1: [monday.adding(days: 3)], 2: [monday.adding(days: 7)]])
        #expect(budget.excusedTravel == [1: [monday.adding(days: 7)]])
        #expect(budget.left(on: monday.adding(days: 3)) == 0)
        #expect(budget.backOn(after: monday.adding(days: 3)) == monday.adding(days: 7))
        #expect(budget.left(on: monday.adding(days: 7)) == 0)
        #expect(
            budget.standing(on: monday.adding(days: 3)).sentence
                == "No excuses left this week; the next comes back on Monday")
        #expect(budget.standing(on: monday.adding(days: 20)).sentence == "2 excuses left this week")
        #expect(budget.standing(on: monday.adding(days: 20)).backOn == nil)
        #expect(!budget.allowsSkip(of: 1, on: monday.adding(days: 4), alreadySkipped: false))
        #expect(budget.allowsSkip(of: 1, on: monday.adding(days: 1), alreadySkipped: true))
    }

    @Test("a skip of an earlier day never takes an excuse that a later week has spent already")
    func earlierDaySkipKeepsLaterWeeks() {
        let bed = ExcuseBudget.RequiredHabit(id: 1, firstDay: day("2026-02-01"))
        // Wednesday and Thursday skipped: the week ending Thursday has spent both of its excuses.
        let budget = ExcuseBudget(
            perWeek: 2, unlockDays: [], required: [bed],
            entries: [(1, monday.adding(days: 2), .skipped), (1, monday.adding(days: 3), .skipped)], travelDays: [])
        // The week ending on Monday has both left, but the week ending Thursday holds Monday too.
        #expect(budget.left(on: monday) == 2)
        #expect(!budget.allowsSkip(of: 1, on: monday, alreadySkipped: false))
        // Four days earlier, every week holding the day has one left; a day already skipped spends nothing.
        #expect(budget.allowsSkip(of: 1, on: monday.adding(days: -4), alreadySkipped: false))
        #expect(budget.allowsSkip(of: 1, on: monday.adding(days: 2), alreadySkipped: true))
        // The refusal names the week that has none left, not the day's own (which has two).
        #expect(
            throws: MorningProofError(
                .refused, code: "no_excuses_left",
                "No excuses left for 2026-03-02: the 7 days from 2026-02-27 to 2026-03-05 have spent all 2 excuses already"
            )
        ) {
            try budget.checkSkip(of: 1, on: monday, alreadySkipped: false)
        }
    }

    @Test("a budget of 0 leaves nothing and names no day; a spend today comes back next week")
    func zeroAndNextWeek() {
        let none = ExcuseBudget(perWeek: 0, unlockDays: [], required: [], entries: [], travelDays: [])
        #expect(none.standing(on: monday).sentence == "No excuses left this week (excuses.per-week is 0)")
        let one = ExcuseBudget(perWeek: 1, unlockDays: [monday], required: [], entries: [], travelDays: [])
        #expect(
            one.standing(on: monday).sentence == "No excuses left this week; the next comes back on Monday next week")
        #expect(one.standing(on: monday.adding(days: 1)).sentence.hasSuffix("on Monday"))
        #expect(ExcuseBudget.perWeek(stored: nil, alias: "1") == 1)
        #expect(ExcuseBudget.perWeek(stored: "3", alias: "1") == 3)
        #expect(ExcuseBudget.perWeek(stored: nil, alias: nil) == 2)
    }
}
