import Foundation
import Testing

@testable import MorningProofCore

@Suite struct QuoteIDTests {
    func book(_ ids: String...) throws -> QuoteBook {
        let quotes = ids.map {
            "{\"id\": \($0), \"text\": \"T\", \"author\": \"A\", \"bookTitle\": \"B\", \"bookId\": \"b\", \"tags\": [], \"isActive\": true, \"dateAdded\": \"2026-01-01\", \"asin\": \"B00X\"}"
        }
        return try QuoteBook.parse(Data(("[\n" + quotes.joined(separator: ",\n") + "\n]").utf8), name: "q.json")
    }

    @Test func keepsTheTypeItWasGiven() throws {
        let parsed = try book("293", "\"kjv-1\"")
        #expect(parsed.quotes.map(\.id) == [.number(293), .string("kjv-1")])
        let encoded = String(decoding: try JSONEncoder().encode(parsed.quotes.map(\.id)), as: UTF8.self)
        #expect(encoded == "[293,\"kjv-1\"]")
        #expect(parsed.quotes[0].bookPageURL == "https://www.amazon.com/dp/B00X")
    }

    @Test func numberAndTextOfTheSameIdClash() {
        #expect(
            throws: MorningProofError.dataError("q.json, line 3: id \"293\" is used twice (first by quote 1, as 293)")
        ) {
            try book("293", "\"293\"")
        }
        #expect(throws: MorningProofError.dataError("q.json, line 3: id 7 is used twice (first by quote 1)")) {
            try book("7", "7")
        }
    }
}
