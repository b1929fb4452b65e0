import MorningProofCore
import Testing

@Suite("Errors name their inputs; each front end words them")
struct ErrorTextTests {
    /// A front end that writes inputs in angle brackets and hints as their case.
    struct Brackets: ErrorPhrasing {
        func name(_ field: InputField, value: String?) -> String { "<\(field)\(value.map { "=\($0)" } ?? "")>" }
        func hint(_ hint: ErrorHint) -> String { " [\(hint)]" }
    }

    @Test func inputsAndHintsAreLeftToThePhrasing() {
        let text: ErrorText =
            "\(field: .every) takes 1 to \(365) days; \(settings: (.times, "K"), (.per, "week"))"
            + "\(hint: .setUpCheckin)"
        #expect(text.rendered(by: Brackets()) == "<every> takes 1 to 365 days; <times=K> <per=week> [setUpCheckin]")
        #expect(text.description == "every takes 1 to 365 days; times K per week; set one up first")
        let error = MorningProofError.usage("bad: \(text)")
        #expect(error.text.rendered(by: Brackets()).hasPrefix("bad: <every>"))
        #expect(error.message == "bad: " + text.description)
        #expect(MorningProofError(.usage, "plain") == .usage("plain"))
    }

    @Test(arguments: [
        HabitDetails(every: 3, times: 2), HabitDetails(every: 0), HabitDetails(per: "week"),
        HabitDetails(times: 8, per: "week"), HabitDetails(times: 40, per: "month"), HabitDetails(times: 5, within: 4),
        HabitDetails(times: 1, within: 400), HabitDetails(times: 3), HabitDetails(times: 3, per: "year"),
        HabitDetails(times: 3, per: "week", within: 9), HabitDetails(remindAt: "25:00"),
        HabitDetails(note: "a\u{1B}"), HabitDetails(kind: .metric), HabitDetails(atLeast: "5"),
        HabitDetails(metric: "steps"), HabitDetails(metric: "steps", atLeast: "1", atMost: "2"),
        HabitDetails(metric: "steps", atLeast: "1", activity: "running"),
        HabitDetails(kind: .photo, metric: "steps", atLeast: "1"),
    ])
    func habitDetailsNameNoOption(details: HabitDetails) throws {
        let error = try #require(throws: MorningProofError.self) { try details.validateNew(named: "Run") }
        #expect(error.kind == .usage)
        #expect(error.message.firstMatch(of: /--[a-z]/) == nil, "\(error.message)")
        #expect(error.text.rendered(by: Brackets()).contains("<"), "\(error.message)")
    }

    @Test func gateReasonsAndReportRangesNameTheirInputs() throws {
        for (run, field) in [
            ({ _ = try GateUnlock.checkReason(" ") }, "<reason>"), ({ try ReportRange.checkWeeks(0) }, "<weeks>"),
        ] as [(() throws -> Void, String)] {
            let error = try #require(throws: MorningProofError.self) { try run() }
            #expect(error.text.rendered(by: Brackets()).hasPrefix(field))
            #expect(!error.message.contains("--"))
        }
    }
}
