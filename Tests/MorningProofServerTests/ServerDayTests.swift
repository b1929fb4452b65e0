import Foundation
import Hummingbird
import MorningProofTestSupport
import Testing

/// The DST, day-start and travel cases of the CLI, replayed through the API with the clock header.
@Suite("The server's day: DST, day start and travel through the API")
struct ServerDayTests {
    /// Posts an update at `now` and returns its status and the day it was stored for.
    private func post(_ api: TestAPI, _ token: String, at now: String) async throws -> (HTTPResponse.Status, String?) {
        let reply = try await api.dailyUpdate(token, at: now)
        return (reply.status, reply.json["date"] as? String)
    }

    @Test(arguments: Engine.available) func newYorksTwentyThreeHourDay(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "America/New_York")
            #expect(try await post(api, token, at: "2026-03-08T00:30:00-05:00") == (.ok, "2026-03-08"))
            // 23:30 after the jump is still the 8th.
            #expect(try await post(api, token, at: "2026-03-08T23:30:00-04:00").0 == .conflict)
            #expect(try await post(api, token, at: "2026-03-09T00:10:00-04:00") == (.ok, "2026-03-09"))
            let summary = try await api.summary(token, at: "2026-03-09T12:00:00-04:00").json
            #expect(summary["day"] as? String == "2026-03-09")
            #expect(summary["currentStreak"] as? Int == 2)
        }
    }

    @Test(arguments: Engine.available) func newYorksTwentyFiveHourDay(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "America/New_York")
            #expect(try await post(api, token, at: "2026-11-01T01:30:00-04:00") == (.ok, "2026-11-01"))
            // 01:30 comes again an hour later, on the same day.
            #expect(try await post(api, token, at: "2026-11-01T01:30:00-05:00").0 == .conflict)
            #expect(try await post(api, token, at: "2026-11-01T23:59:00-05:00").0 == .conflict)
            #expect(try await post(api, token, at: "2026-11-02T00:00:00-05:00") == (.ok, "2026-11-02"))
        }
    }

    @Test(arguments: Engine.available) func aFourOClockDayStart(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com")
            try await api.setZone(token, "America/New_York", at: "2026-03-01T12:00:00Z", dayStart: "04:00")
            let night = try await api.summary(token, at: "2026-03-10T01:30:00-04:00").json
            #expect(night["day"] as? String == "2026-03-09")
            #expect(try await post(api, token, at: "2026-03-10T01:30:00-04:00") == (.ok, "2026-03-09"))
            #expect(try await post(api, token, at: "2026-03-10T03:59:00-04:00").0 == .conflict)
            #expect(try await post(api, token, at: "2026-03-10T04:00:00-04:00") == (.ok, "2026-03-10"))
        }
    }

    /// GET /api/checkin says when its day ends (the next day's start): the web app tells a new day
    /// by it when it paints a day it kept, with no time-zone rules of its own. Across both of New
    /// York's changes, with a 04:00 day start.
    @Test(arguments: Engine.available) func theCheckinSaysWhenItsDayEnds(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com")
            try await api.setZone(token, "America/New_York", at: "2026-03-01T12:00:00Z", dayStart: "04:00")
            for (now, day, ends) in [
                // The night of the spring jump (02:00 EST → 03:00 EDT): still the 7th, until 04:00 EDT.
                ("2026-03-08T01:30:00-05:00", "2026-03-07", "2026-03-08T04:00:00-04:00"),
                ("2026-03-08T04:00:00-04:00", "2026-03-08", "2026-03-09T04:00:00-04:00"),
                // The autumn night (02:00 EDT → 01:00 EST): the 31st ends at 04:00 EST, 25 hours long.
                ("2026-10-31T12:00:00-04:00", "2026-10-31", "2026-11-01T04:00:00-05:00"),
            ] {
                let checkin = try await api.send(.get, "/api/checkin", token: token, at: now)
                #expect(checkin.status == .ok)
                #expect(checkin.json["day"] as? String == day, "at \(now)")
                #expect(checkin.json["dayEndsAt"] as? String == ends, "at \(now)")
            }
        }
    }

    @Test(arguments: Engine.available) func losAngelesToTokyoAndBack(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "America/Los_Angeles")
            for day in 1...10 {  // midday in Los Angeles
                let date = String(format: "2026-03-%02d", day)
                #expect(try await post(api, token, at: "\(date)T20:00:00Z") == (.ok, date))
            }
            // Lands in Tokyo and says so at 23:30 on the 10th in Los Angeles, 15:30 on the 11th in Tokyo.
            try await api.setZone(token, "Asia/Tokyo", at: "2026-03-11T06:30:00Z")
            let landed = try await api.summary(token, at: "2026-03-11T07:00:00Z").json
            #expect(landed["day"] as? String == "2026-03-11")
            #expect(landed["timezone"] as? String == "Asia/Tokyo")
            #expect(landed["currentStreak"] as? Int == 10)
            // The 11th is a travel day: left empty, it bridges the streak.
            #expect(try await post(api, token, at: "2026-03-12T00:00:00Z") == (.ok, "2026-03-12"))
            let tokyo = try await api.summary(token, at: "2026-03-12T01:00:00Z").json
            #expect(tokyo["currentStreak"] as? Int == 11)
            #expect(tokyo["longestStreak"] as? Int == 11)

            #expect(try await post(api, token, at: "2026-03-13T00:00:00Z") == (.ok, "2026-03-13"))
            // Back to Los Angeles at 14:00 on the 13th in Tokyo, 22:00 on the 12th in Los Angeles.
            try await api.setZone(token, "America/Los_Angeles", at: "2026-03-13T05:00:00Z")
            let back = try await api.summary(token, at: "2026-03-13T05:30:00Z").json
            #expect(back["day"] as? String == "2026-03-12")
            #expect(back["today"] != nil)
            // The 12th and then the 13th come again: both are done already, not asked again.
            #expect(try await post(api, token, at: "2026-03-13T05:30:00Z").0 == .conflict)
            #expect(try await post(api, token, at: "2026-03-13T16:00:00Z").0 == .conflict)
            #expect(try await post(api, token, at: "2026-03-14T16:00:00Z") == (.ok, "2026-03-14"))
            let home = try await api.summary(token, at: "2026-03-14T17:00:00Z").json
            #expect(home["currentStreak"] as? Int == 13)
            #expect(home["longestStreak"] as? Int == 13)
        }
    }

    @Test(arguments: Engine.available) func lordHowesHalfHourChange(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "Australia/Lord_Howe")
            #expect(try await post(api, token, at: "2026-04-05T01:45:00+11:00") == (.ok, "2026-04-05"))
            // Clocks go back half an hour at 02:00: 01:45 comes again, on the same day.
            #expect(try await post(api, token, at: "2026-04-05T01:45:00+10:30").0 == .conflict)
            #expect(try await post(api, token, at: "2026-04-05T23:59:00+10:30").0 == .conflict)
            #expect(try await post(api, token, at: "2026-04-06T00:00:00+10:30") == (.ok, "2026-04-06"))
        }
    }

    @Test(arguments: Engine.available) func apiaSkippedTheThirtiethOfDecember2011(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "Pacific/Apia")
            #expect(try await post(api, token, at: "2011-12-28T12:00:00-10:00") == (.ok, "2011-12-28"))
            #expect(try await post(api, token, at: "2011-12-29T23:30:00-10:00") == (.ok, "2011-12-29"))
            // Half an hour later it is 00:30 on the 31st: the 30th never happened there.
            #expect(try await post(api, token, at: "2011-12-30T10:30:00Z") == (.ok, "2011-12-31"))
            let summary = try await api.summary(token, at: "2011-12-31T12:00:00+14:00").json
            #expect(summary["day"] as? String == "2011-12-31")
            #expect(summary["currentStreak"] as? Int == 3)
            #expect(summary["longestStreak"] as? Int == 3)
        }
    }
}
