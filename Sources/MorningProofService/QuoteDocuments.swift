import Foundation
import MorningProofCore

/// A quote as scripts and the web app see it (`quote --json`, `GET /api/quote`).
public struct QuoteJSON: Encodable, Sendable {
    public var date: String
    public var window: Int
    public var startsAt: String
    public var index: Int
    public var id: QuoteID
    public var text: String
    public var author: String
    public var bookTitle: String
    public var url: String?
    public var asin: String?
    public var coverImageURL: String?
    /// Where to find the book (from `asin`); text output only.
    public var bookPageURL: String?

    public init(_ slot: QuoteSchedule.Slot, book: QuoteBook) {
        let quote = book.active[slot.index]
        date = slot.date.description
        window = slot.window
        startsAt = slot.startsAt
        index = slot.index
        id = quote.id
        text = quote.text
        author = quote.author
        bookTitle = quote.bookTitle
        url = quote.url
        asin = quote.asin
        coverImageURL = quote.coverImageURL
        bookPageURL = quote.bookPageURL
    }

    enum CodingKeys: String, CodingKey {
        case date, window, startsAt, index, id, text, author, bookTitle, url, asin, coverImageURL
    }

    /// For people: the text, then who said it and where, then where to find the book if known.
    public var lines: [String] {
        ["“\(text)”", "    — \(author), \(bookTitle)"] + (bookPageURL.map { ["    Find the book: \($0)"] } ?? [])
    }
}

/// The quote of a moment with where it sits in the schedule (`quote --json`, `GET /api/quote`).
public struct QuoteMomentJSON: Encodable, Sendable {
    public var quote: QuoteJSON
    /// True in the first 30 seconds of a window, when the previous window's quote is still shown.
    public var inGrace: Bool
    public var count: Int
    public var step: Int

    public init(at instant: Date, book: QuoteBook, clock: DayClock) {
        let moment = book.schedule.moment(at: instant, clock: clock)
        quote = QuoteJSON(moment.shown, book: book)
        inGrace = moment.inGrace
        count = book.schedule.count
        step = book.schedule.step
    }

    public func encode(to encoder: Encoder) throws {
        try quote.encode(to: encoder)
        enum Keys: String, CodingKey { case inGrace, count, step }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(inGrace, forKey: .inGrace)
        try container.encode(count, forKey: .count)
        try container.encode(step, forKey: .step)
    }
}

/// Every window of a day so far with its quote (`quote history --json`, `GET /api/quote/history`).
public struct QuoteHistoryJSON: Encodable, Sendable {
    public var date: String
    public var count: Int
    public var step: Int
    public var windows: [QuoteJSON]

    public init(_ history: QuoteHistory) {
        date = history.day.description
        count = history.book.schedule.count
        step = history.book.schedule.step
        windows = history.slots.map { QuoteJSON($0, book: history.book) }
    }
}
