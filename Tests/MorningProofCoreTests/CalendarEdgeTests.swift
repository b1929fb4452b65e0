import Foundation
import Testing

@testable import MorningProofCore

/// The calendar's edges: instants and days outside 1900-9998 refused, Samoa's missing day.
@Suite struct CalendarEdgeTests {
    @Test(arguments: [
        "0001-01-01T00:00:10Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59-12:00", "1899-12-31T23:59:59Z",
        "9999-01-01T00:00:00Z",
    ])
    func instantsOutsideTheSupportedYearsAreRefused(text: String) {
        #expect(ISOInstant.parse(text) == nil)
        #expect(throws: MorningProofError.self) { try ISOInstant.read(text, field: "--now") }
        do {
            _ = try ISOInstant.read(text, field: "--now")
        } catch let error as MorningProofError {
            #expect(error.kind == .usage)
            #expect(error.message.contains("outside the supported instants"), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theSupportedInstantsReachTheirEdges() throws {
        #expect(try ISOInstant.read("1900-01-01T00:00:00Z", field: "--now") == ISOInstant.supported.lowerBound)
        let last = try ISOInstant.read("9998-12-31T23:59:59Z", field: "--now")
        // Every zone's day of the last instant, and the day after, can still be named.
        for zone in ["Pacific/Kiritimati", "Etc/GMT-14", "Pacific/Pago_Pago", "Etc/GMT+12"] {
            let clock = try #require(DayClock(zoneIdentifier: zone, dayStart: 720))
            let day = clock.day(at: last)
            #expect(day.adding(days: 1).startOfMonth.year <= 9999)
            #expect(clock.day(at: ISOInstant.supported.lowerBound).adding(days: -1).endOfMonth.year >= 1899)
        }
    }

    @Test(arguments: ["0000-12-31", "10000-01-01", "1899-12-31", "9999-01-01", "-9223372036854775807", "-80000"])
    func daysOutsideTheSupportedYearsAreRefused(text: String) {
        let today = LocalDay("2026-03-10")!
        do {
            _ = try LocalDay.resolve(text, today: today)
            Issue.record("\(text) was accepted")
        } catch let error as MorningProofError {
            #expect(error.kind == .usage)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func samoaSkippedTheThirtiethOfDecember2011() throws {
        let apia = try #require(DayClock(zoneIdentifier: "Pacific/Apia"))
        #expect(apia.neverHappened(LocalDay("2011-12-30")!))
        #expect(!apia.neverHappened(LocalDay("2011-12-29")!))
        #expect(!apia.neverHappened(LocalDay("2011-12-31")!))
        #expect(apia.daysThatNeverHappened() == [LocalDay("2011-12-30")!])
        #expect(DayClock(zoneIdentifier: "Europe/Berlin")!.daysThatNeverHappened().isEmpty)
        do {
            try apia.checkHappened(LocalDay("2011-12-30")!)
            Issue.record("2011-12-30 was accepted")
        } catch let error as MorningProofError {
            #expect(error.message == "2011-12-30 did not happen in Pacific/Apia")
        }
    }

    @Test func aSkippedDayNeitherBreaksNorGrowsTheStreak() throws {
        let apia = try #require(DayClock(zoneIdentifier: "Pacific/Apia"))
        let days = ["2011-12-25", "2011-12-26", "2011-12-27", "2011-12-28", "2011-12-29", "2011-12-31"]
        let timeline = HabitTimeline(
            schedule: .daily, firstDay: LocalDay("2011-12-25")!, today: LocalDay("2011-12-31")!,
            entries: Dictionary(uniqueKeysWithValues: days.map { (LocalDay($0)!, EntryStatus.done) }),
            travelDays: [ZoneChange]().bridgedDays(clock: apia))
        #expect(timeline.currentStreak == 6)
        #expect(timeline.longestStreak.length == 6)
    }
}
