import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import MorningProofTestSupport
import Testing

@Suite("The profile: zone, day start and week start; the owner's are the CLI's settings")
struct ProfileTests {
    @Test(arguments: Engine.available) func meLeavesOutAnUnsetZone(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com")
            let me = try await api.send(.get, "/api/auth/me", token: token)
            #expect(Set(me.json.keys) == ["id", "email", "dayStart", "weekStart"])
            #expect(!me.body.contains("null"))
        }
    }

    @Test(arguments: Engine.available) func changesWhatIsGiven(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com")
            let reply = try await api.send(
                .patch, "/api/auth/profile", token: token,
                json: #"{"timezone": "Asia/Tokyo", "dayStart": "4:00", "weekStart": "sunday"}"#)
            #expect(reply.status == .ok)
            #expect(reply.json["timezone"] as? String == "Asia/Tokyo")
            #expect(reply.json["dayStart"] as? String == "04:00")
            #expect(reply.json["weekStart"] as? String == "sunday")
            let only = try await api.send(.patch, "/api/auth/profile", token: token, json: #"{"dayStart": "00:30"}"#)
            #expect(only.json["timezone"] as? String == "Asia/Tokyo")
            #expect(only.json["dayStart"] as? String == "00:30")
            #expect(only.json["weekStart"] as? String == "sunday")
            #expect(try await api.send(.patch, "/api/auth/profile", token: token, json: "{}").status == .ok)
        }
    }

    @Test(arguments: Engine.available) func refusesBadValues(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let cases = [
                (#"{"timezone": "GMT+3"}"#, "unknown time zone"), (#"{"timezone": "EST"}"#, "America/New_York"),
                (#"{"timezone": ""}"#, "empty"), (#"{"timezone": null}"#, "must be a string"),
                (#"{"dayStart": "13:00"}"#, #"bad "dayStart": "13:00""#), (#"{"dayStart": "+1:30"}"#, #""dayStart""#),
                (#"{"dayStart": 240}"#, "must be a string"), (#"{"weekStart": "mon"}"#, "bad weekStart"),
                (#"{"weekStart": "Funday"}"#, "bad weekStart"), (#"{"zone": "UTC"}"#, "unknown field \"zone\""),
            ]
            for (body, message) in cases {
                let reply = try await api.send(.patch, "/api/auth/profile", token: token, json: body)
                #expect(reply.status == .badRequest, "\(body)")
                #expect(reply.errorMessage.contains(message), "\(body): \(reply.errorMessage)")
            }
            // Nothing changed.
            let me = try await api.send(.get, "/api/auth/me", token: token)
            #expect(me.json["timezone"] as? String == "UTC")
            #expect(me.json["dayStart"] as? String == "00:00")
        }
    }

    @Test(arguments: Engine.available) func theOwnerIsAnAccountWithoutAnEmail(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            let owner = try await server.ownerToken()
            try await server.run { api in
                let me = try await api.send(.get, "/api/auth/me", token: owner)
                #expect(me.json["id"] as? Int == 1)
                #expect(Set(me.json.keys) == ["id", "dayStart", "weekStart"])
                try await api.setZone(owner, "America/New_York", at: "2026-03-01T12:00:00Z", dayStart: "04:00")
                let week = try await api.send(
                    .patch, "/api/auth/profile", token: owner, json: #"{"weekStart": "friday"}"#)
                #expect(week.status == .ok)
                let after = try await api.send(.get, "/api/auth/me", token: owner)
                #expect(after.json["timezone"] as? String == "America/New_York")
                #expect(after.json["dayStart"] as? String == "04:00")
                #expect(after.json["weekStart"] as? String == "friday")
            }
        }
    }

    /// The one difference between the engines, by design: SQLite's owner is the CLI's person, whose
    /// days are in the machine's zone until one is set; a PostgreSQL database has no machine's person,
    /// so its owner is told to finish onboarding like any account without a zone.
    @Test(arguments: Engine.available) func anOwnerWithoutAZone(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            let owner = try await server.ownerToken()
            try await server.run { api in
                let status = try await api.send(.get, "/api/status", token: owner, at: "2026-11-20T12:00:00Z")
                switch engine {
                case .sqlite:
                    #expect(status.status == .ok)
                case .postgres:
                    #expect(status.status == .notFound)
                    #expect(status.errorMessage.contains("complete onboarding first"))
                }
            }
        }
    }

    /// On SQLite only: there the owner is the CLI's person, whose profile is the CLI's settings; a
    /// PostgreSQL database has no CLI beside it.
    @Test func theOwnersProfileIsTheCLIsSettings() async throws {
        try await TestServer.with(.sqlite) { server in
            let database = try #require(server.store as? AppDatabase)
            let owner = try await server.ownerToken()
            try await server.run { api in
                try await api.setZone(owner, "America/New_York", at: "2026-03-01T12:00:00Z")
                await #expect(try database.setting(SettingKey.timeZone) == "America/New_York")
                // What `config set` writes, the server reads.
                try await database.changeClock(
                    to: DayClock(zoneIdentifier: "Asia/Tokyo", dayStart: 240)!,
                    at: Date(timeIntervalSince1970: 1_773_000_000))
                try await database.setSetting(SettingKey.weekStart, to: "sunday")
                let after = try await api.send(.get, "/api/auth/me", token: owner)
                #expect(after.json["timezone"] as? String == "Asia/Tokyo")
                #expect(after.json["dayStart"] as? String == "04:00")
                #expect(after.json["weekStart"] as? String == "sunday")
                let week = try await api.send(
                    .patch, "/api/auth/profile", token: owner, json: #"{"weekStart": "friday"}"#)
                #expect(week.status == .ok)
                await #expect(try database.setting(SettingKey.weekStart) == "friday")
            }
        }
    }

    @Test(arguments: Engine.available) func onlyARealChangeOfZoneIsRecorded(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            let owner = try await server.ownerToken()
            try await server.run { api in
                // The first zone is a choice, not a trip.
                try await api.setZone(owner, "America/Los_Angeles", at: "2026-03-01T12:00:00Z")
                #expect(try await server.zoneChanges(of: owner).isEmpty)
                try await api.setZone(owner, "America/Los_Angeles", at: "2026-03-02T12:00:00Z")
                #expect(try await server.zoneChanges(of: owner).isEmpty)
                // 20:00 on the 3rd in Los Angeles is 13:00 on the 4th in Tokyo.
                try await api.setZone(owner, "Asia/Tokyo", at: "2026-03-04T04:00:00Z")
                let changes = try await server.zoneChanges(of: owner)
                #expect(changes.count == 1)
                #expect(changes.first?.at == ISOInstant.parse("2026-03-04T04:00:00Z"))
                #expect(changes.travelDays == [LocalDay("2026-03-03")!, LocalDay("2026-03-04")!])
                // Another account's trips are its own: the owner's travel days stay the owner's.
                let ada = try await api.signUp("ada@example.com", timezone: "Europe/London")
                try await api.setZone(ada, "Europe/Paris", at: "2026-03-05T12:00:00Z")
                #expect(try await server.zoneChanges(of: owner).count == 1)
                #expect(try await server.zoneChanges(of: ada).count == 1)
            }
        }
    }
}
