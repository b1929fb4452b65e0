import Foundation
import Testing

@testable import MorningProofCore

/// A traveller's history: entries get the day of the clock in force when they are recorded,
/// zone changes are recorded with their instant, as the store does.
private struct Trip {
    var current: DayClock
    var entries: [LocalDay: EntryStatus] = [:]
    var changes: [ZoneChange] = []

    init(_ zone: String) { current = clock(zone) }

    mutating func done(at text: String) { entries[current.day(at: instant(text))] = .done }

    mutating func move(to zone: String, at text: String) {
        let new = clock(zone)
        changes.append(ZoneChange(at: instant(text), from: current, to: new))
        current = new
    }

    var travelDays: Set<LocalDay> { changes.reduce(into: []) { $0.formUnion($1.travelDays) } }

    func timeline(at text: String, from first: String, schedule: Schedule = .daily, travel: Bool = true)
        -> HabitTimeline
    {
        HabitTimeline(
            schedule: schedule, firstDay: day(first), today: current.day(at: instant(text)), entries: entries,
            travelDays: travel ? travelDays : [])
    }
}

@Suite struct TravelTests {
    @Test func travelDaysAreTheChangeDayInBothZones() {
        let change = ZoneChange(
            at: instant("2026-03-11T17:00:00Z"), from: clock("Pacific/Honolulu"), to: clock("Asia/Tokyo"))
        // 07:00 on the 11th in Honolulu, 02:00 on the 12th in Tokyo.
        #expect(change.travelDays == [day("2026-03-11"), day("2026-03-12")])
        let same = ZoneChange(
            at: instant("2026-03-11T12:00:00Z"), from: clock("Europe/London"), to: clock("Europe/Paris"))
        #expect(same.travelDays == [day("2026-03-11")])
    }

    @Test func aDayThatWasNeverTodayIsATravelDayToo() {
        // 23:00 on the 10th at UTC-12 is 01:00 on the 12th at UTC+14: the 11th never happened here.
        let change = ZoneChange(
            at: instant("2026-03-11T11:00:00Z"), from: clock("Etc/GMT+12"), to: clock("Pacific/Kiritimati"))
        #expect(change.travelDays == [day("2026-03-10"), day("2026-03-11"), day("2026-03-12")])
        // A later day start on the old clock can do the same: 11:00 on the 11th counts for the 10th.
        let late = ZoneChange(
            at: instant("2026-03-11T21:00:00Z"), from: clock("Pacific/Honolulu", dayStart: "12:00"),
            to: clock("Pacific/Kiritimati"))
        #expect(late.travelDays == [day("2026-03-10"), day("2026-03-11"), day("2026-03-12")])
        // A daily streak across it survives.
        let streak = HabitTimeline(
            schedule: .daily, firstDay: day("2026-03-08"), today: day("2026-03-12"),
            entries: [day("2026-03-08"): .done, day("2026-03-09"): .done, day("2026-03-10"): .done],
            travelDays: change.travelDays)
        #expect(streak.currentStreak == 3)
        #expect(streak.todayState == .travel)  // the 12th is a travel day too
        #expect(streak.daysUntilBreak == 1)
    }

    @Test func eastwardTripThatSkipsACalendarDayKeepsTheStreak() {
        var trip = Trip("Pacific/Honolulu")
        for date in 1...10 {
            trip.done(at: String(format: "2026-03-%02dT18:00:00Z", date))  // 08:00 in Honolulu
        }
        // Leaves Honolulu at 23:00 on the 10th, lands in Tokyo at 02:00 on the 12th and says so then
        // (07:00 on the 11th in Honolulu): the 11th passed in the air.
        trip.move(to: "Asia/Tokyo", at: "2026-03-11T17:00:00Z")
        #expect(trip.travelDays == [day("2026-03-11"), day("2026-03-12")])
        trip.done(at: "2026-03-11T23:00:00Z")  // 08:00 on the 12th in Tokyo
        #expect(trip.entries[day("2026-03-12")] == .done)
        #expect(trip.entries[day("2026-03-11")] == nil)

        let later = trip.timeline(at: "2026-03-12T03:00:00Z", from: "2026-03-01")  // 12:00 on the 12th
        #expect(later.today == day("2026-03-12"))
        #expect(later.status(on: day("2026-03-11"))?.state == "travel")
        #expect(later.currentStreak == 11)
        #expect(later.todayState == .done)
        #expect(later.longestStreak.length == 11)
        #expect(later.longestStreak.start == day("2026-03-01"))
        #expect(later.longestStreak.end == day("2026-03-12"))
        // Without the travel day the 11th is a plain miss.
        #expect(trip.timeline(at: "2026-03-12T03:00:00Z", from: "2026-03-01", travel: false).currentStreak == 1)
    }

    @Test func landingBeforeDoingItLeavesTheArrivalDayOpen() {
        var trip = Trip("Pacific/Honolulu")
        trip.done(at: "2026-03-09T18:00:00Z")
        trip.done(at: "2026-03-10T18:00:00Z")
        trip.move(to: "Asia/Tokyo", at: "2026-03-11T17:00:00Z")
        let landed = trip.timeline(at: "2026-03-11T17:05:00Z", from: "2026-03-09")
        #expect(landed.today == day("2026-03-12"))
        #expect(landed.todayState == .travel)  // no need to do it today, and it can still be done
        #expect(landed.currentStreak == 2)
        // Tomorrow, in Tokyo, the habit is due again.
        let next = trip.timeline(at: "2026-03-12T17:00:00Z", from: "2026-03-09")
        #expect(next.today == day("2026-03-13"))
        #expect(next.todayState == .pending)
        #expect(next.currentStreak == 2)
        #expect(next.daysUntilBreak == 0)
    }

    @Test func westwardTripDoesNotAskForTheRepeatedDateAgain() {
        var trip = Trip("Asia/Tokyo")
        for date in day("2026-03-01").through(day("2026-03-13")) {
            trip.done(at: "\(date.adding(days: -1))T22:00:00Z")  // 07:00 in Tokyo
        }
        #expect(trip.entries.count == 13)
        // Lands in Honolulu at 20:00 on the 12th, when Tokyo is at 15:00 on the 13th.
        trip.move(to: "Pacific/Honolulu", at: "2026-03-13T06:00:00Z")
        #expect(trip.travelDays == [day("2026-03-12"), day("2026-03-13")])

        let evening = trip.timeline(at: "2026-03-13T06:30:00Z", from: "2026-03-01")
        #expect(evening.today == day("2026-03-12"))
        #expect(evening.lastDay == day("2026-03-13"))
        #expect(evening.todayState == .done)
        #expect(evening.currentStreak == 13)
        #expect(evening.longestStreak.end == day("2026-03-13"))
        // The 13th is done already, so the next day to do is the 14th.
        #expect(evening.daysUntilBreak == 2)
        #expect(evening.completionRate(lastDays: 7) == 1)

        // The 13th comes again in Honolulu: done already, not asked again.
        let repeated = trip.timeline(at: "2026-03-13T22:00:00Z", from: "2026-03-01")
        #expect(repeated.today == day("2026-03-13"))
        #expect(repeated.todayState == .done)
        #expect(repeated.currentStreak == 13)
        #expect(repeated.daysUntilBreak == 1)

        let fourteenth = trip.timeline(at: "2026-03-14T22:00:00Z", from: "2026-03-01")
        #expect(fourteenth.todayState == .pending)
        #expect(fourteenth.currentStreak == 13)
        #expect(fourteenth.daysUntilBreak == 0)
    }

    @Test func westwardTripKeepsAWeeklyTargetMet() {
        var trip = Trip("Asia/Tokyo")
        // 2026-03-09 is a Monday. Three done days by Tokyo's Wednesday the 11th, at 07:00.
        for date in 9...11 { trip.done(at: String(format: "2026-03-%02dT22:00:00Z", date - 1)) }
        trip.move(to: "Pacific/Honolulu", at: "2026-03-11T06:00:00Z")
        let weekly = trip.timeline(at: "2026-03-11T06:30:00Z", from: "2026-03-09", schedule: .timesPerWeek(3))
        #expect(weekly.today == day("2026-03-10"))
        #expect(weekly.lastDay == day("2026-03-11"))
        #expect(weekly.todayState == .done)
        #expect(weekly.currentStreak == 3)
        // The week is met: nothing more is needed until the next week could no longer reach 3.
        // Next week (16th to 22nd) still needs 3: they can wait until Friday the 20th, 10 days on.
        #expect(weekly.daysUntilBreak == 10)
    }
}
