import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Observer
import MorningProofService

/// `morningproof notifications list`: what was delivered, what failed and why.
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "List the notifications of the last days: delivered, failed, and why.",
        subcommands: [List.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the notifications of the last days, newest first.",
            discussion: """
                Each goal.met and habit.reminder is claimed once per habit and day; a failed hook \
                is tried again by later passes, up to 5 attempts, with its last error shown here.
                Examples:
                  morningproof notifications list
                  morningproof notifications list --days 30 --json
                """)

        @Option(help: "How many days back, today included.")
        var days = 7

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try validating {
                guard days >= 1 else { throw MorningProofError.usage("--days needs a number of days, 1 or more") }
            }
        }

        func run() async throws {
            let session = try await global.session()
            let records = try await session.database.notifications(since: session.today.adding(days: -(days - 1)))
            let items = records.map { NotificationJSON($0, zone: session.clock.timeZone) }
            if session.json { return try Console.json(["notifications": items]) }
            if items.isEmpty { return Console.out("No notifications in the last \(days) days.") }
            for item in items {
                var line = "\(item.day)  \(item.event)  \(UserText.visible(item.habit))  \(item.state)"
                if item.attempts == 0 {
                    // Claimed by an import or the server's ingest for the next pass to deliver.
                    line += " (queued for the next check)"
                } else if item.attempts > 1 || item.state != NotificationState.delivered.rawValue {
                    line += " (\(item.attempts) \(item.attempts == 1 ? "attempt" : "attempts"))"
                }
                Console.out(line + (item.message.map { "  \(UserText.visible($0))" } ?? ""))
                if let error = item.lastError, item.state != NotificationState.delivered.rawValue {
                    Console.out("    last error: \(UserText.visible(error))")
                }
            }
        }
    }
}
