import Foundation
import MorningProofService
import Testing

@testable import MorningProofCLI

/// `gate --server` says the excuses left in the same words as the local gate (issue 39).
@Suite("The remote gate's words")
struct RemoteGateWordsTests {
    static func gate(open: Bool, left: Int, backOn: String?) throws -> GateJSON {
        let back = backOn.map { "\"\($0)\"" } ?? "null"
        let json = """
            {"open": \(open), "reason": "routine complete", "pending": [], "checkin": "yes",
             "excusesLeft": \(left), "excuseBackOn": \(back), "day": "2026-11-26", "nextChange": null,
             "quote": {"id": "builtin:1", "text": "Rise.", "author": "A", "book": "B"}}
            """
        return try JSONDecoder().decode(GateJSON.self, from: Data(json.utf8))
    }

    @Test func oneExcuseIsSingularAndNoneNamesTheDayItComesBack() throws {
        #expect(RemoteGate.lines(try Self.gate(open: true, left: 1, backOn: nil)).first
            == "The gate is open (routine complete). 1 excuse left this week.")
        let closed = RemoteGate.lines(try Self.gate(open: false, left: 0, backOn: "2026-12-01")).joined(separator: "\n")
        #expect(closed.contains("No excuses left this week; the next comes back on Tuesday"))
        #expect(!closed.contains("0 excuses"))
    }
}
