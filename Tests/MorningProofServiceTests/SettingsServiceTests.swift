import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

@Suite("Settings use cases")
struct SettingsServiceTests {
    let database: AppDatabase
    let settings: SettingsService
    let now = ISOInstant.parse("2026-03-01T07:00:00-05:00")!

    init() async throws {
        database = try AppDatabase.inMemory()
        settings = SettingsService(database: database)
        try await database.changeClock(to: DayClock(zoneIdentifier: "America/New_York")!, at: now)
    }

    @Test("each value is checked by its rule and stored as the rule says")
    func checkedThenStored() async throws {
        await #expect(try settings.set(key: "week-start", value: "Sun", now: now) == "sunday")
        await #expect(try settings.set(key: "checkin.suggestions", value: " Pray ;; Read ", now: now) == "Pray; Read")
        await #expect(try settings.set(key: "checkin.question", value: " Did you pray? ", now: now) == "Did you pray?")
        await #expect(try settings.set(key: "gate.unlocks-per-week", value: "2", now: now) == "2")
        await #expect(
            try settings.set(key: "metrics.source-priority", value: " Watch , ,iPhone", now: now) == "Watch,iPhone")
        await #expect(
            throws: MorningProofError.usage("gate.unlocks-per-week takes a whole number from 0 to 7, not \"8\"")
        ) {
            try await settings.set(key: "gate.unlocks-per-week", value: "8", now: now)
        }
        await #expect(
            throws: MorningProofError.usage("bad \(field: .dayStart, "\"13:00\""): use HH:MM from 00:00 to 12:00")
        ) {
            try await settings.set(key: "day-start", value: "13:00", now: now)
        }
        await #expect(throws: MorningProofError.usage("checkin.question needs some words")) {
            try await settings.set(key: "checkin.question", value: "  ", now: now)
        }
        await #expect(
            throws: MorningProofError.usage("the value of checkin.verse is 501 characters long; the most is 500")
        ) {
            try await settings.set(key: "checkin.verse", value: String(repeating: "a", count: 501), now: now)
        }
        await #expect(try database.gateUnlocksPerWeek() == 2)
        await #expect(try database.weekStart() == 7)
    }

    @Test("a time zone must be an IANA name; a new zone or day start is recorded as a change of clock")
    func clock() async throws {
        do {
            _ = try await settings.set(key: "timezone", value: "europe/istanbul", now: now)
            Issue.record("a zone in the wrong case was accepted")
        } catch let error as MorningProofError {
            #expect(error.message == "unknown time zone \"europe/istanbul\"; did you mean Europe/Istanbul?")
        }
        await #expect(try settings.set(key: "timezone", value: "Europe/Istanbul", now: now) == "Europe/Istanbul")
        await #expect(try settings.set(key: "day-start", value: "04:00", now: now) == "04:00")
        await #expect(try database.clock() == DayClock(zoneIdentifier: "Europe/Istanbul", dayStart: 240)!)
        let all = try await settings.all()
        #expect(all["timezone"] == "Europe/Istanbul" && all["day-start"] == "04:00" && all["week-start"] == "monday")
        #expect(try database.zoneChanges().count == 2)
    }

    @Test("an unknown key lists every known one, a front end's own included")
    func unknownKeys() async throws {
        let rules = SettingRules(
            features: SettingRules.checkinAndGate + [SettingRule(key: "notify.hook", help: "") { $0 }])
        let withHook = SettingsService(database: database, rules: rules)
        await #expect(
            throws: MorningProofError.usage(
                "unknown setting \"colour\" (settings: timezone, day-start, week-start, checkin.question, checkin.verse, "
                    + "checkin.suggestions, gate.unlocks-per-week, excuses.per-week, notify.hook)")
        ) { try await withHook.set(key: "colour", value: "blue", now: now) }
        await #expect(try withHook.set(key: "notify.hook", value: "x", now: now) == "x")
        await #expect(throws: MorningProofError.self) {
            try await withHook.set(key: "quotes.file", value: "builtin", now: now)
        }
        await #expect(try settings.set(key: "quotes.file", value: "builtin", now: now) == "builtin")
        await #expect(throws: MorningProofError.self) {
            try await settings.set(key: "notify.hook", value: "x", now: now)
        }
    }
}
