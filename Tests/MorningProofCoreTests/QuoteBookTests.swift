import Foundation
import Testing

@testable import MorningProofCore

@Suite struct QuoteBookTests {
    @Test func builtInQuotesAreAWholeValidSet() throws {
        let book = try QuoteBook.builtIn()
        #expect(book.active.count >= 100)
        #expect(Set(book.quotes.map(\.id)).count == book.quotes.count)
        #expect(book.quotes.allSatisfy { !$0.author.isEmpty && !$0.bookTitle.isEmpty && !$0.bookId.isEmpty })
    }

    func parse(_ text: String) throws -> QuoteBook {
        try QuoteBook.parse(Data(text.utf8), name: "q.json")
    }

    let good = """
        {"id": "a", "text": "One.", "author": "A", "bookTitle": "B", "bookId": "b", "tags": [],
         "isActive": true, "dateAdded": "2026-01-01"}
        """

    @Test func keepsActiveQuotesInFileOrder() throws {
        let inactive = good.replacingOccurrences(of: "\"a\"", with: "\"c\"").replacingOccurrences(
            of: "true", with: "false")
        let second = good.replacingOccurrences(of: "\"a\"", with: "\"d\"").replacingOccurrences(
            of: "\"tags\": []", with: "\"tags\": [], \"url\": \"https://example.org\"")
        let book = try parse("[\(good),\n\(inactive),\n\(second)]")
        #expect(book.quotes.count == 3)
        #expect(book.active.map(\.id) == ["a", "d"])
        #expect(book.active[1].url == "https://example.org")
        #expect(book.schedule.count == 2)
    }

    @Test func refusesAMissingFieldWithItsLine() throws {
        let broken = good.replacingOccurrences(of: "\"author\": \"A\", ", with: "")
        #expect(throws: MorningProofError.dataError("q.json, line 4: quote 2 lacks the field \"author\"")) {
            try parse("[\n\(good),\n  \(broken)\n]")
        }
    }

    @Test func refusesAWrongTypeWithItsLine() throws {
        let broken = good.replacingOccurrences(of: "\"isActive\": true", with: "\"isActive\": \"yes\"")
        #expect(throws: MorningProofError.dataError("q.json, line 2: quote 1 field isActive should be true or false")) {
            try parse("[\n\(broken)\n]")
        }
    }

    @Test func refusesBrokenJSONWithTheParsersLine() throws {
        do {
            _ = try parse("[\n\(good),\n{\"id\": \"b\",, }\n]")
            Issue.record("a broken file was accepted")
        } catch let error as MorningProofError {
            #expect(error.kind == .dataError)
            #expect(error.message.hasPrefix("q.json, line 4: not valid JSON"), "\(error.message)")
        }
    }

    @Test func refusesATruncatedFileAtItsLastLine() throws {
        #expect(
            throws: MorningProofError.dataError(
                "q.json, line 3: not valid JSON: the file ends before the array is closed")
        ) {
            try parse("[\n\(good)\n\n")
        }
    }

    @Test func refusesDuplicatesBadDatesAndNoActiveQuotes() throws {
        #expect(throws: MorningProofError.dataError("q.json, line 3: id \"a\" is used twice (first by quote 1)")) {
            try parse("[\(good),\n\(good)]")
        }
        let badDate = good.replacingOccurrences(of: "2026-01-01", with: "yesterday")
        #expect(throws: MorningProofError.self) { try parse("[\(badDate)]") }
        #expect(throws: MorningProofError.dataError("q.json: no quote is active (isActive: true)")) {
            try parse("[\(good.replacingOccurrences(of: "true", with: "false"))]")
        }
        #expect(throws: MorningProofError.dataError("q.json: the file holds no quotes")) { try parse("[]") }
        #expect(throws: MorningProofError.dataError("q.json, line 1: a quotes file is a JSON array of quotes")) {
            try parse("{\"id\": 1}")
        }
    }
}
