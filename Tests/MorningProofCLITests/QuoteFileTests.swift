import Foundation
import TestFixtures
import Testing

/// Quotes files in the seed's shape: numeric ids, asin, coverImageURL, through `config set quotes.file`.
@Suite struct QuoteFileTests {
    static let fixture = Fixtures.url("quotes/seed-shape.json")
    let now = "2026-01-01T00:12:00Z"

    @Test func seedShapedFileKeepsNumericIdsAndBookLinks() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let set = try cli.run(["config", "set", "quotes.file", Self.fixture.path], now: now)
        #expect(set.status == 0, "\(set.stderr)")
        // 4 active quotes, step 37, 1 January: windows 0, 1, 2 show indexes 1, 2, 3.
        let history = try #require(try cli.json(["quote", "history"], now: now) as? [String: Any])
        let windows = try #require(history["windows"] as? [[String: Any]])
        #expect(windows.map { $0["id"] as? Int } == [292, 293, 294])
        #expect(windows.allSatisfy { $0["id"] is NSNumber })
        #expect(windows[0]["asin"] as? String == "B000FIXT02")
        #expect(windows[0]["coverImageURL"] as? String == "https://example.com/covers/walden.jpg")
        #expect(windows[1]["asin"] == nil && windows[1]["coverImageURL"] == nil)
        #expect(windows[2]["asin"] == nil)  // an empty asin is no asin
        #expect(windows[2]["coverImageURL"] as? String == "https://example.com/covers/letters.jpg")

        let raw = try cli.run(["quote", "--at", "2026-01-01T00:01:00Z", "--json"], now: now)
        #expect(raw.stdout.contains("\"id\":292,"), "\(raw.stdout)")
        let text = try cli.run(["quote", "--at", "2026-01-01T00:01:00Z"], now: now)
        #expect(text.stdout.contains("Find the book: https://www.amazon.com/dp/B000FIXT02"), "\(text.stdout)")
        let noBook = try cli.run(["quote", "--at", "2026-01-01T00:06:00Z"], now: now)
        #expect(noBook.stdout.contains("Franklin"))
        #expect(!noBook.stdout.contains("Find the book"))
    }

    func write(_ cli: CLI, _ ids: [String]) throws -> URL {
        let quotes = ids.map {
            "{\"id\": \($0), \"text\": \"T\", \"author\": \"A\", \"bookTitle\": \"B\", \"bookId\": \"b\", \"tags\": [], \"isActive\": true, \"dateAdded\": \"2026-01-01\"}"
        }
        let file = cli.directory.appendingPathComponent("quotes-\(UUID().uuidString).json")
        try ("[\n" + quotes.joined(separator: ",\n") + "\n]\n").write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func stringIdsStillWorkAndMixedDuplicatesAreRefused() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let strings = try write(cli, ["\"kjv-1\"", "\"kjv-2\""])
        #expect(try cli.run(["config", "set", "quotes.file", strings.path], now: now).status == 0)
        let raw = try cli.run(["quote", "--json"], now: now)
        #expect(raw.stdout.contains("\"id\":\"kjv-"), "\(raw.stdout)")

        let mixed = try write(cli, ["293", "\"a\"", "\"293\""])
        let refused = try cli.run(["config", "set", "quotes.file", mixed.path], now: now)
        #expect(refused.status == 65)
        #expect(
            refused.stderr.contains("line 4: id \"293\" is used twice (first by quote 1, as 293)"), "\(refused.stderr)")

        let fractional = try write(cli, ["2.5"])
        let bad = try cli.run(["config", "set", "quotes.file", fractional.path], now: now)
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("field id should be a string or a whole number"), "\(bad.stderr)")
        // The good file is still in force.
        let config = try #require(try cli.json(["config"], now: now) as? [String: Any])
        #expect(config["quotes.file"] as? String == strings.path)
    }
}
