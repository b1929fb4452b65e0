import Testing

@testable import MorningProofCore

@Suite struct LocalDayTests {
    @Test func roundTripsThroughDayNumbers() {
        for number in stride(from: -700_000, through: 2_900_000, by: 997) {
            let day = LocalDay(dayNumber: number)
            #expect(day.dayNumber == number)
            #expect(LocalDay(day.description) == day)
        }
    }

    @Test func printsFourDigitYearsAndTwoDigitMonthsAndDays() {
        #expect(LocalDay(year: 2026, month: 11, day: 24)!.description == "2026-11-24")
        #expect(LocalDay(year: 987, month: 3, day: 5)!.description == "0987-03-05")
        #expect(LocalDay(year: 1, month: 1, day: 1)!.description == "0001-01-01")
        #expect(LocalDay(year: 9999, month: 12, day: 31)!.description == "9999-12-31")
    }

    @Test func parsesOnlyRealDates() {
        #expect(LocalDay("2026-03-08") == LocalDay(year: 2026, month: 3, day: 8))
        #expect(LocalDay("2026-02-29") == nil)
        #expect(LocalDay("2024-02-29") != nil)
        #expect(LocalDay("2026-3-8") == nil)
        #expect(LocalDay("yesterday") == nil)
        #expect(LocalDay("+026-03-08") == nil)
        #expect(LocalDay("2026-03-08 ") == nil)
        #expect(LocalDay("2026/03/08") == nil)
        #expect(LocalDay("２０２６-03-08") == nil)
        #expect(LocalDay("0000-01-01") == nil)
    }

    @Test func knowsWeekdaysAndWeeks() {
        let sunday = LocalDay("2026-03-08")!
        #expect(sunday.weekday == 7)
        #expect(sunday.startOfWeek(weekStart: 1) == LocalDay("2026-03-02"))
        #expect(sunday.startOfWeek(weekStart: 7) == sunday)
        #expect(LocalDay("2026-01-01")!.dayOfYear == 1)
        #expect(LocalDay("2026-12-31")!.dayOfYear == 365)
    }
}
