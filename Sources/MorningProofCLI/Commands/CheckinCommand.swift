import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

/// `morningproof checkin ...`: one honest question each morning.
struct CheckinCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin",
        abstract: "The daily check-in: one question, answered once a day.",
        discussion: """
            A check-in is a habit of kind checkin. A yes is a done day (with a streak and a score) and \
            stands for the day; a no can be changed to yes later the same day, when you have done it. \
            "undo checkin" or "checkin reset" clears today's answer. The day honours config day-start.

            Examples:
              morningproof checkin setup --preset faith
              morningproof checkin            # asks on a terminal when today is unanswered
              morningproof checkin yes
              morningproof checkin status --json

            Texts: config set checkin.question TEXT, checkin.verse TEXT, and checkin.suggestions \
            "one; two; three" (separated by ;).
            """,
        subcommands: [Ask.self, Yes.self, No.self, Status.self, Setup.self, Reset.self],
        defaultSubcommand: Ask.self
    )

    struct Ask: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ask",
            abstract: "Ask the question when today is unanswered; otherwise print today's answer.",
            discussion: """
                On a terminal (standard input is a tty) it asks and waits for y or n. Not on a terminal \
                and unanswered, it prints the question and how to answer (checkin yes / checkin no) and \
                exits 0 without storing anything.
                """)

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let checkin = try await session.checkins.require(now: session.now)
            if session.json {
                let status = try await session.checkins.status(now: session.now)
                return try Console.json(CheckinStatusJSON(status, clock: session.clock))
            }
            if let answer = checkin.answer {
                Console.out("Today's check-in (\(session.today)): \(answer.yes ? "yes" : "no").")
                if !answer.yes { session.printEncouragement(checkin.texts) }
                return
            }
            guard isatty(STDIN_FILENO) == 1 else {
                Console.out(UserText.visible(checkin.texts.question))
                Console.out("Answer with: morningproof checkin yes   or   morningproof checkin no")
                return
            }
            guard let yes = ask(checkin.texts.question) else {
                return Console.out("No answer recorded; the question will wait.")
            }
            try await session.answerCheckin(yes: yes)
        }

        /// Reads y or n from the terminal; nil at end of input.
        private func ask(_ question: String) -> Bool? {
            var prompt = question + " [y/n] "
            while true {
                Console.prompt(prompt)
                guard let line = readLine() else {
                    Console.out("")
                    return nil
                }
                switch line.trimmingCharacters(in: .whitespaces).lowercased() {
                case "y", "yes": return true
                case "n", "no": return false
                default: prompt = "Please answer y or n: "
                }
            }
        }
    }

    struct Yes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "yes",
            abstract: "Answer yes for today (a no from earlier today becomes yes).")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            try await session.answerCheckin(yes: true)
        }
    }

    struct No: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "no",
            abstract: "Answer no for today (a yes already given stands and is kept).")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            try await session.answerCheckin(yes: false)
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Today's check-in: whether to ask, the answer, the last answer and the streak.",
            discussion: """
                --json fields: day, configured, shouldAsk (a check-in exists and today is unanswered), \
                answeredToday, answeredYes, answer, lastAnsweredAt, currentStreak, question. Exits 0 \
                even when no check-in is set up (configured is then false).
                """)
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let found = try await session.checkins.status(now: session.now)
            let status = CheckinStatusJSON(found, clock: session.clock)
            if session.json { return try Console.json(status) }
            guard let checkin = found.checkin else {
                return Console.out("No check-in is set up. Try: morningproof checkin setup")
            }
            Console.out("\(checkin.habit.shownName) (\(session.today)): \(UserText.visible(checkin.texts.question))")
            Console.out("  today: \(status.answer ?? "not answered yet")")
            Console.out("  last answered: \(status.lastAnsweredAt ?? "never")")
            Console.out("  current streak: \(status.currentStreak) \(status.currentStreak == 1 ? "day" : "days")")
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset",
            abstract: "Clear today's answer (and its done entry), for testing; --now replays another day.")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let was = try await session.checkins.reset(now: session.now).was.map { $0 ? "yes" : "no" }
            if session.json {
                return try Console.json(["day": session.today.description, "cleared": was ?? "nothing"])
            }
            Console.out(
                was.map { "Cleared today's check-in (\(session.today), was \($0))." }
                    ?? "Today's check-in (\(session.today)) had no answer.")
        }
    }
}
