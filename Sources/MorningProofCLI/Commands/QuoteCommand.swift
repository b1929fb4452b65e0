import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

/// `morningproof quote`: the quote of the moment, the same in every process.
struct QuoteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quote",
        abstract: "The quote of the moment (it changes every 5 minutes), or a day's history of quotes.",
        discussion: """
            The local day (config timezone, wall-clock time) is cut into 5-minute windows: window = \
            minutes since local midnight / 5. With N active quotes in file order, the quote of a window is \
            index = (window + dayOfYear × step) mod N, where step is 37 when 37 and N share no divisor, \
            else the next integer above 37 that shares none with N. During the first 30 seconds of a \
            window the previous window's quote still shows (at 00:00:00-00:00:29, the 23:55 window of \
            the day before). Example: 292 quotes, 11:00 on 1 January is window 132, index \
            (132 + 1 × 37) mod 292 = 169; on 2 January, 206.

            The quotes come from config quotes.file (a JSON array of {id, text, author, bookTitle, \
            bookId, tags, isActive, dateAdded} with optional url, asin and coverImageURL; id is a string \
            or a whole number, and 293 and "293" are the same id), else the built-in set. With an asin, \
            text output adds "Find the book: https://www.amazon.com/dp/ASIN".

            Examples:
              morningproof quote
              morningproof quote --at 2026-01-01T11:00:00Z --json
              morningproof quote history --date yesterday
            """,
        subcommands: [Show.self, History.self],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "The quote of a moment (default: now).",
            discussion:
                "--json fields: window, index, id (a number or a string, as in the file), text, author, bookTitle, url, asin, coverImageURL (each omitted when absent), date, startsAt, inGrace, count, step."
        )

        @Option(help: ArgumentHelp("The moment: ISO 8601 with an offset or Z (default: now).", valueName: "instant"))
        var at: String?

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try validating {
                if let at { _ = try ISOInstant.read(at, field: "--at") }
            }
        }

        func run() async throws {
            let session = try await global.session()
            let book = try await QuoteSource.load(session.database)
            let instant = at.flatMap(ISOInstant.parse) ?? session.now
            let moment = QuoteMomentJSON(at: instant, book: book, clock: session.clock)
            if session.json { return try Console.json(moment) }
            let quote = moment.quote
            quote.lines.forEach(Console.out)
            Console.out(
                "  (\(quote.date) window \(quote.window), \(quote.startsAt); quote \(quote.index + 1) of \(moment.count)"
                    + (moment.inGrace ? "; still showing during the first 30 seconds of the next window" : "") + ")")
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Every window of a day so far, with its quote.",
            discussion: """
                Today lists the windows from 00:00 to the current one; an earlier day lists all of them \
                (windows a DST jump skips are left out). Each window shows its own quote, without the \
                30-second grace. --date takes YYYY-MM-DD, today, yesterday or -N, as local calendar dates.
                """)

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("The day (default today).", valueName: "day"))
        var date: String?

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let history = try await QuoteSource.history(
                session.database, clock: session.clock, date: date, now: session.now)
            let (day, book) = (history.day, history.book)
            let document = QuoteHistoryJSON(history)
            if session.json { return try Console.json(document) }
            let quotes = document.windows
            Console.out(
                "\(day): \(quotes.count) windows, \(book.schedule.count) active quotes, step \(book.schedule.step)")
            for quote in quotes {
                Console.out(
                    "\(quote.startsAt)  #\(quote.index + 1)  “\(quote.text)” — \(quote.author), \(quote.bookTitle)")
            }
        }
    }
}
