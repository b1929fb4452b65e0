import Foundation
import Testing

@testable import MorningProofCore

@Suite struct DayClockTests {
    static let hour: TimeInterval = 3600

    @Test func newYorkSpringForwardMakesA23HourDay() {
        let ny = clock("America/New_York")
        #expect(ny.start(of: day("2026-03-08")) == instant("2026-03-08T05:00:00Z"))
        #expect(ny.start(of: day("2026-03-09")) == instant("2026-03-09T04:00:00Z"))
        #expect(ny.length(of: day("2026-03-08")) == 23 * Self.hour)
        #expect(ny.length(of: day("2026-03-07")) == 24 * Self.hour)
        // 01:59:59 EST, then 03:00 EDT: both on the 8th.
        #expect(ny.day(at: instant("2026-03-08T06:59:59Z")) == day("2026-03-08"))
        #expect(ny.day(at: instant("2026-03-08T07:00:00Z")) == day("2026-03-08"))
        #expect(ny.wallClock(at: instant("2026-03-08T07:00:00Z")).seconds == 3 * 3600)
    }

    @Test func newYorkFallBackMakesA25HourDay() {
        let ny = clock("America/New_York")
        #expect(ny.length(of: day("2026-11-01")) == 25 * Self.hour)
        #expect(ny.day(at: instant("2026-11-02T04:59:59Z")) == day("2026-11-01"))
        #expect(ny.day(at: instant("2026-11-02T05:00:00Z")) == day("2026-11-02"))
    }

    @Test func dayStartInsideTheSkippedHourStartsAtTheJump() {
        // 2026-03-08: 01:59:59 EST is followed by 03:00 EDT, so 02:30 never shows on the wall.
        let ny = clock("America/New_York", dayStart: "02:30")
        let jump = instant("2026-03-08T07:00:00Z")
        #expect(ny.start(of: day("2026-03-08")) == jump)
        #expect(ny.day(at: jump) == day("2026-03-08"))
        #expect(ny.day(at: jump.addingTimeInterval(-1)) == day("2026-03-07"))
        // The 7th starts at 02:30 EST and the 9th at 02:30 EDT: 23.5 hours each side of the jump.
        #expect(ny.length(of: day("2026-03-07")) == 23.5 * Self.hour)
        #expect(ny.length(of: day("2026-03-08")) == 23.5 * Self.hour)
    }

    @Test func dayStartInsideTheRepeatedHourIsItsFirstOccurrence() {
        // 2026-11-01: 01:00-01:59 happens twice, first EDT (05:00-05:59Z), then EST (06:00-06:59Z).
        let ny = clock("America/New_York", dayStart: "01:30")
        let first = instant("2026-11-01T05:30:00Z")
        #expect(ny.start(of: day("2026-11-01")) == first)
        #expect(ny.day(at: first.addingTimeInterval(-1)) == day("2026-10-31"))
        #expect(ny.day(at: first) == day("2026-11-01"))
        // 01:15 EST, the second time the wall shows a time before 01:30: the 1st has begun already.
        #expect(ny.day(at: instant("2026-11-01T06:15:00Z")) == day("2026-11-01"))
        #expect(ny.day(at: instant("2026-11-01T06:45:00Z")) == day("2026-11-01"))
        #expect(ny.length(of: day("2026-10-31")) == 24 * Self.hour)
        #expect(ny.length(of: day("2026-11-01")) == 25 * Self.hour)
    }

    @Test func londonChangesAtOneInTheMorningUTC() {
        let london = clock("Europe/London")
        #expect(london.length(of: day("2026-03-29")) == 23 * Self.hour)
        #expect(london.length(of: day("2026-10-25")) == 25 * Self.hour)
        #expect(london.start(of: day("2026-03-30")) == instant("2026-03-29T23:00:00Z"))
        #expect(london.day(at: instant("2026-03-29T22:59:59Z")) == day("2026-03-29"))
        // Day start 01:30 on 2026-03-29 falls in the skipped hour 01:00-02:00: starts at the jump.
        let late = clock("Europe/London", dayStart: "01:30")
        #expect(late.start(of: day("2026-03-29")) == instant("2026-03-29T01:00:00Z"))
        // On 2026-10-25 01:30 happens twice: 00:30Z (BST) then 01:30Z (GMT).
        #expect(late.start(of: day("2026-10-25")) == instant("2026-10-25T00:30:00Z"))
        #expect(late.day(at: instant("2026-10-25T01:10:00Z")) == day("2026-10-25"))
    }

    @Test func lordHoweShiftsByHalfAnHour() {
        let lh = clock("Australia/Lord_Howe")
        // 2026-04-05: 02:00 +11 goes back to 01:30 +10:30; 2026-10-04: 02:00 +10:30 jumps to 02:30 +11.
        #expect(lh.length(of: day("2026-04-05")) == 24.5 * Self.hour)
        #expect(lh.length(of: day("2026-10-04")) == 23.5 * Self.hour)
        #expect(lh.length(of: day("2026-04-04")) == 24 * Self.hour)
        let skipped = clock("Australia/Lord_Howe", dayStart: "02:15")
        #expect(skipped.start(of: day("2026-10-04")) == instant("2026-10-03T15:30:00Z"))
        #expect(skipped.day(at: instant("2026-10-03T15:29:59Z")) == day("2026-10-03"))
        let repeated = clock("Australia/Lord_Howe", dayStart: "01:45")
        #expect(repeated.start(of: day("2026-04-05")) == instant("2026-04-04T14:45:00Z"))
        // 01:40 +10:30, after the clocks went back: still the 5th.
        #expect(repeated.day(at: instant("2026-04-04T15:10:00Z")) == day("2026-04-05"))
    }

    @Test func apiaSkippedTheThirtiethOfDecember2011() {
        let apia = clock("Pacific/Apia")
        let jump = instant("2011-12-30T10:00:00Z")
        #expect(apia.day(at: jump.addingTimeInterval(-1)) == day("2011-12-29"))
        #expect(apia.day(at: jump) == day("2011-12-31"))
        #expect(apia.start(of: day("2011-12-30")) == jump)
        #expect(apia.start(of: day("2011-12-31")) == jump)
        #expect(apia.length(of: day("2011-12-30")) == 0)
        #expect(apia.length(of: day("2011-12-29")) == 24 * Self.hour)
    }

    @Test func apiaHasNoDaylightSavingNow() {
        let apia = clock("Pacific/Apia")
        for date in day("2026-01-01").through(day("2026-12-31")) {
            #expect(apia.length(of: date) == 24 * Self.hour, "\(date)")
        }
        #expect(apia.start(of: day("2026-07-01")) == instant("2026-06-30T11:00:00Z"))
    }

    @Test func reminderTimesFollowTheWallClock() {
        let ny = clock("America/New_York")
        // 02:30 does not exist on 2026-03-08: the reminder fires at the jump, 03:00 EDT.
        #expect(ny.instant(on: day("2026-03-08"), secondsAfterMidnight: 9000) == instant("2026-03-08T07:00:00Z"))
        // 01:30 happens twice on 2026-11-01: the first one, EDT.
        #expect(ny.instant(on: day("2026-11-01"), secondsAfterMidnight: 5400) == instant("2026-11-01T05:30:00Z"))
        #expect(ny.instant(on: day("2026-07-01"), secondsAfterMidnight: 7 * 3600) == instant("2026-07-01T11:00:00Z"))
        // A quarter to midnight on the Apia day that never was: the first instant of the 31st.
        #expect(
            clock("Pacific/Apia").instant(on: day("2011-12-30"), secondsAfterMidnight: 85_500)
                == instant("2011-12-30T10:00:00Z"))
    }

    @Test func earlyHoursBeforeTheDayStartCountForTheDayBefore() {
        let berlin = clock("Europe/Berlin", dayStart: "04:00")
        #expect(berlin.day(at: instant("2026-06-10T01:30:00+02:00")) == day("2026-06-09"))
        #expect(berlin.day(at: instant("2026-06-10T03:59:59+02:00")) == day("2026-06-09"))
        #expect(berlin.day(at: instant("2026-06-10T04:00:00+02:00")) == day("2026-06-10"))
        #expect(berlin.start(of: day("2026-06-10")) == instant("2026-06-10T02:00:00Z"))
        let wall = berlin.wallClock(at: instant("2026-06-10T01:30:00+02:00"))
        #expect(wall.date == day("2026-06-10"))
        #expect(wall.seconds == 5400)
    }

    /// Around each change, every instant counts for the day whose start it has reached and not the next.
    @Test(arguments: [
        ("America/New_York", "2026-03-08"), ("America/New_York", "2026-11-01"),
        ("Europe/London", "2026-03-29"), ("Europe/London", "2026-10-25"),
        ("Australia/Lord_Howe", "2026-04-05"), ("Australia/Lord_Howe", "2026-10-04"),
        ("Pacific/Apia", "2011-12-30"), ("America/Santiago", "2026-04-05"),
        ("America/Santiago", "2026-09-06"),
    ])
    func dayAtAgreesWithStartOf(zone: String, change: String) {
        for dayStart in ["00:00", "01:00", "01:30", "02:15", "02:30", "04:00", "12:00"] {
            let clock = clock(zone, dayStart: dayStart)
            var previous: LocalDay?
            for d in day(change).adding(days: -2).through(day(change).adding(days: 2)) {
                let start = clock.start(of: d)
                let next = clock.start(of: d.adding(days: 1))
                #expect(start <= next)
                guard start < next else { continue }  // a day that the zone skipped
                #expect(clock.day(at: start) == d, "\(zone) \(dayStart) start of \(d)")
                if let previous {
                    #expect(clock.day(at: start.addingTimeInterval(-1)) == previous, "\(zone) \(dayStart) before \(d)")
                }
                var t = start
                while t < next {
                    #expect(clock.day(at: t) == d, "\(zone) \(dayStart) \(t) in \(d)")
                    t += 20 * 60
                }
                previous = d
            }
        }
    }
}
