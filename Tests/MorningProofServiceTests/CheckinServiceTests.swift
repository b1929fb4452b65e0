import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Testing

@testable import MorningProofService

@Suite("Check-in use cases")
struct CheckinServiceTests {
    let database: AppDatabase
    let service: CheckinService

    init() throws {
        database = try AppDatabase.inMemory()
        service = CheckinService(database: database, clock: DayClock(zoneIdentifier: "America/New_York")!)
    }

    static func at(_ text: String) -> Date { ISOInstant.parse(text)! }

    @Test("the outcome rule: a yes stands for the day, a no can become yes")
    func outcomeRule() {
        #expect(CheckinOutcome.of(answering: false, over: nil) == .answered)
        #expect(CheckinOutcome.of(answering: true, over: false) == .changedToYes)
        #expect(CheckinOutcome.of(answering: false, over: true) == .yesStands)
        #expect(CheckinOutcome.of(answering: true, over: true) == .unchanged)
        #expect(CheckinOutcome.of(answering: false, over: false) == .unchanged)
    }

    @Test("nothing set up: status says so and answering is a usage error that names setup")
    func notSetUp() async throws {
        let status = try await service.status(now: Self.at("2026-03-08T07:00:00-05:00"))
        #expect(status.checkin == nil && !status.shouldAsk && status.currentStreak == 0)
        await #expect(throws: MorningProofError.self) { try await service.answer(yes: true, now: Self.at("2026-03-08T07:00:00-05:00")) }
    }

    @Test("no, then yes later the same day; a no after that leaves the yes; the streak spans the DST night")
    func answersAcrossDST() async throws {
        let setup = try await service.setup(preset: .faith, question: nil, now: Self.at("2026-03-07T06:00:00-05:00"))
        #expect(setup.created && setup.texts.question == "Have you spent time with God today?")
        await #expect(try service.setup(preset: nil, question: nil, now: Self.at("2026-03-07T06:00:00-05:00")).created == false)
        await #expect(try service.answer(yes: true, now: Self.at("2026-03-07T07:00:00-05:00")).currentStreak == 1)
        // 2026-03-08 has 23 hours in New York.
        await #expect(try service.status(now: Self.at("2026-03-08T06:00:00-04:00")).shouldAsk)
        await #expect(try service.answer(yes: false, now: Self.at("2026-03-08T06:30:00-04:00")).outcome == .answered)
        let back = try await service.answer(yes: true, now: Self.at("2026-03-08T21:00:00-04:00"))
        #expect(back.outcome == .changedToYes && back.yes && back.currentStreak == 2)
        let stands = try await service.answer(yes: false, now: Self.at("2026-03-08T22:00:00-04:00"))
        #expect(stands.outcome == .yesStands && stands.yes)
        await #expect(try service.reset(now: Self.at("2026-03-08T23:00:00-04:00")).was == true)
        await #expect(try service.status(now: Self.at("2026-03-08T23:00:00-04:00")).shouldAsk)
    }

    @Test("a blank question is refused and changes nothing")
    func blankQuestion() async throws {
        await #expect(throws: MorningProofError.self) {
            try await service.setup(preset: nil, question: "   ", now: Self.at("2026-03-07T06:00:00-05:00"))
        }
        await #expect(try service.habit() == nil)
    }

    @Test("the general preset draws from the general quotes, the faith preset from all; a file of one's own stays")
    func presetQuotes() async throws {
        let now = Self.at("2026-03-07T06:00:00-05:00")
        func scripture() async throws -> Int {
            try await QuoteSource.load(database).active.filter { $0.tags.contains(BuiltInQuotes.scriptureTag) }.count
        }
        #expect(try await scripture() > 0)  // before any setup: every built-in quote
        _ = try await service.setup(preset: nil, question: nil, now: now)  // a new check-in: general
        #expect(try await scripture() == 0)
        #expect(try await QuoteSource.load(database).active.count > 40)
        _ = try await service.setup(preset: .faith, question: nil, now: now)
        #expect(try await scripture() > 0)
        #expect(try QuoteSource.checkSetting("builtin-general") == "builtin-general")
        try await database.setSetting(SettingKey.quotesFile, to: "/srv/quotes.json")
        _ = try await service.setup(preset: .general, question: nil, now: now)
        #expect(try await database.setting(SettingKey.quotesFile) == "/srv/quotes.json")
    }
}
