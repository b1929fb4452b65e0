import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofStoreContract
import Observer

/// `morningproof check`: one observer pass, for cron.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Read the health files that changed, complete met goals, and notify once a day.",
        discussion: """
            One pass: reads the watched files (morningproof source add) that changed, marks the \
            metric habits whose goal is met done (a manual entry always wins; an --at-most goal is \
            judged once its day is over), and delivers each goal.met and habit.reminder at most once \
            a day: one line on stdout (JSON with --json) and the notify.hook script, if set.

            Silent when nothing happened, so cron mails only news. Warnings about bad files go to \
            stderr. Exits 0 unless the database itself fails (74, or 75 when busy). The event line is \
            printed even when the hook fails; a failed hook is tried again by a later pass, 1, 2, 4 \
            and 8 minutes after the attempts before, up to 5 times a day.

            Examples:
              morningproof check
              */5 * * * * morningproof check     (crontab: every five minutes)
              morningproof config set notify.hook ~/.config/morningproof/notify
            """)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let session = try await global.session()
        let pass = try await CheckPass.configured(session.database, clock: session.clock)
        let report = try await pass.run(at: session.now) { event in
            session.json ? Console.outJSON(event.json()) : Console.out(event.line)
        }
        for warning in report.scan.warnings { Console.error("morningproof: warning: \(warning)") }
        for failure in report.failures { Console.error("morningproof: notification not delivered: \(failure)") }
    }
}
