import Foundation
import Testing

@testable import MorningProofCore

/// Building schedules from `habit add` options, storing them, and saying them in words.
@Suite struct ScheduleOptionsTests {
    @Test func buildsEachKindFromItsOptions() throws {
        #expect(try Schedule.from(every: nil, times: nil, per: nil, within: nil) == .daily)
        #expect(try Schedule.from(every: 3, times: nil, per: nil, within: nil) == .everyDays(3))
        #expect(try Schedule.from(every: 1, times: nil, per: nil, within: nil) == .daily)
        #expect(try Schedule.from(every: nil, times: 3, per: "week", within: nil) == .timesPerWeek(3))
        #expect(try Schedule.from(every: nil, times: 3, per: "Week", within: nil) == .timesPerWeek(3))
        #expect(try Schedule.from(every: nil, times: 10, per: "month", within: nil) == .timesPerMonth(10))
        #expect(try Schedule.from(every: nil, times: 4, per: nil, within: 10) == .timesInDays(times: 4, days: 10))
        #expect(try Schedule.from(every: nil, times: 5, per: nil, within: 5) == .daily)
    }

    @Test(arguments: [
        (Int?.none, Int?.some(8), String?.some("week"), Int?.none),
        (nil, 0, "week", nil), (nil, 32, "month", nil), (nil, 3, "year", nil), (nil, 3, nil, nil),
        (nil, nil, "week", nil), (nil, nil, nil, 7), (nil, 5, nil, 4), (nil, 1, nil, 0), (nil, 1, nil, 366),
        (0, nil, nil, nil), (366, nil, nil, nil), (3, 1, "week", nil), (nil, 2, "week", 7),
    ])
    func refusesBadOptionsAsUsageErrors(every: Int?, times: Int?, per: String?, within: Int?) {
        #expect(throws: MorningProofError.self) {
            try Schedule.from(every: every, times: times, per: per, within: within)
        }
        do {
            _ = try Schedule.from(every: every, times: times, per: per, within: within)
        } catch let error as MorningProofError {
            #expect(error.kind == .usage)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test(arguments: [
        Schedule.daily, .everyDays(3), .timesPerWeek(3), .timesPerMonth(10), .timesInDays(times: 4, days: 10),
    ])
    func storageRoundTrips(schedule: Schedule) {
        #expect(Schedule(storageValue: schedule.storageValue) == schedule)
    }

    @Test(arguments: [
        Schedule.daily, .everyDays(3), .timesPerWeek(1), .timesPerWeek(7), .timesPerMonth(31),
        .timesInDays(times: 4, days: 10), .timesInDays(times: 1, days: 365),
    ])
    func requestFieldsRoundTrip(schedule: Schedule) throws {
        let fields = schedule.fields
        #expect(
            try Schedule.from(every: fields.every, times: fields.times, per: fields.per, within: fields.within)
                == schedule)
    }

    @Test func refusesUnknownStoredValues() {
        for text in ["", "weekly", "every", "every:x", "in:3", "week:3:4", "daily:1"] {
            #expect(Schedule(storageValue: text) == nil, "\(text)")
        }
    }

    @Test func saysItInWords() {
        #expect(Schedule.daily.summary == "daily")
        #expect(Schedule.everyDays(3).summary == "every 3 days")
        #expect(Schedule.timesPerWeek(1).summary == "once a week")
        #expect(Schedule.timesPerWeek(3).summary == "3 times a week")
        #expect(Schedule.timesPerMonth(1).summary == "once a month")
        #expect(Schedule.timesInDays(times: 1, days: 10).summary == "1 time in 10 days")
        #expect(Schedule.timesInDays(times: 4, days: 10).summary == "4 times in 10 days")
    }

    @Test func frequencyIsTimesPerDays() {
        let cases: [(Schedule, Int, Int)] = [
            (.daily, 1, 1), (.everyDays(3), 1, 3), (.timesPerWeek(3), 3, 7), (.timesPerMonth(10), 10, 30),
            (.timesInDays(times: 4, days: 10), 4, 10),
        ]
        for (schedule, times, days) in cases {
            #expect(schedule.frequency.times == times, "\(schedule)")
            #expect(schedule.frequency.days == days, "\(schedule)")
        }
    }
}
