import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

/// `morningproof gate`: exit 0 only when the morning routine is done, for shells, launchers and blockers.
struct GateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gate",
        abstract: "Exit 0 when the morning routine is done (the gate is open), 1 while it is not.",
        discussion: """
            The gate is open when every habit marked --required is settled today (done, skipped, or not \
            due by its schedule: a not-due habit asks nothing today) and, if a check-in is set up, today's \
            answer is yes. A gate unlock opens it for the rest of the day. Closed, it prints what is still \
            missing, the verse, the quote of the moment and the suggestions.

            Examples:
              morningproof gate && echo open
              morningproof gate --quiet || echo "not yet"
              alias firefox='morningproof gate --exec firefox'
              morningproof gate unlock --reason "on call this morning"
            """,
        subcommands: [Check.self, Unlock.self, Sites.self],
        defaultSubcommand: Check.self
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Say whether the gate is open (exit 0) or closed (exit 1); --exec runs a command when open.",
            discussion: """
                --exec CMD [ARGS...] replaces morningproof with CMD when the gate is open (every argument \
                after CMD is passed through untouched, even ones starting with -), so the exit code is CMD's \
                own. Put --db, --now and --json before --exec. Closed, it prints the block screen and exits \
                1; a CMD that cannot be found exits 127, one that cannot be run 126.
                """)

        @Flag(help: "Print nothing; only the exit code tells.")
        var quiet = false

        @Option(
            help: ArgumentHelp(
                "Ask the gate of a server account (or config gate.server); the token from MORNINGPROOF_GATE_TOKEN or config gate.token-file.",
                valueName: "url"))
        var server: String?

        @OptionGroup var global: GlobalOptions

        @Option(
            name: .customLong("exec"), parsing: .remaining,
            help: ArgumentHelp(
                "Run this command (with its arguments) in place of morningproof when open.", valueName: "cmd"))
        var exec: [String] = []

        func validate() throws {
            try validating {
                if let first = exec.first, first.isEmpty { throw MorningProofError.usage("--exec needs a command") }
            }
        }

        func run() async throws {
            // Everything that touches the database happens in here, so it is closed before exec.
            let open = try await check()
            guard open, let command = exec.first else {
                if !open { throw ExitCode(MorningProofError.Kind.negative.exitCode) }
                return
            }
            try Self.replaceProcess(with: command, arguments: exec)
        }

        private func check() async throws -> Bool {
            let session = try await global.session()
            if let remote = try await RemoteGate.configured(server: server, settings: session.database) {
                return try await checkRemote(remote, session: session)
            }
            // Quiet, or about to run the command: the decision alone (the screen's quotes are not read).
            if quiet || !exec.isEmpty {
                let open = try await session.gate.decision(now: session.now).decision.isOpen
                if quiet || open { return open }
            }
            let state = try await session.gateScreen()
            let open = state.decision.isOpen
            if session.json {
                try Console.json(state.json(day: session.today))
            } else if open {
                Console.out(state.openLine)
            } else {
                state.blockScreen.forEach(Console.out)
            }
            return open
        }

        /// The server's answer (or, offline, the last open answer of today, else closed), said as `check` says it.
        private func checkRemote(_ remote: RemoteGate, session: Session) async throws -> Bool {
            let (gate, offline) = try await remote.answer(now: session.now)
            if let offline {
                Console.error(
                    "morningproof: \(offline); "
                        + (gate == nil ? "the gate stays closed" : "the last answer known today holds (open)"))
            }
            // Quiet, or about to run the command: nothing is printed, as from the database.
            if quiet || (!exec.isEmpty && gate?.open == true) { return gate?.open ?? false }
            if session.json, let gate {
                try Console.json(gate)
            } else if let gate {
                RemoteGate.lines(gate).forEach(Console.out)
            } else {
                Console.out("The gate is closed: the server cannot be asked, and no open answer is known today.")
            }
            return gate?.open ?? false
        }

        /// execvp: the command takes over this process, its arguments and exit code untouched.
        static func replaceProcess(with command: String, arguments: [String]) throws -> Never {
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
            argv.append(nil)
            execvp(command, &argv)
            let code = errno
            let reason = String(cString: strerror(code))
            Console.error("morningproof: cannot run \(command): \(reason)")
            throw ExitCode(code == ENOENT ? 127 : 126)
        }
    }

    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlock",
            abstract: "Open the gate for the rest of today, with a reason (limited per rolling week).",
            discussion: """
                An unlock spends an excuse: at most config excuses.per-week (default 2, 0 to 7; alias \
                gate.unlocks-per-week) in any 7 days, today and the 6 days before it, shared with skips of \
                required habits and empty travel days. Each unlock is recorded with its reason and shown in report.
                """)

        @Option(help: "Why the gate has to open today.")
        var reason: String

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try validating { _ = try GateUnlock.checkReason(reason) }
        }

        func run() async throws {
            let session = try await global.session()
            let result = try await session.gate.unlock(reason: reason, now: session.now)
            result.gate.warnAboutQuotes()
            let day = result.gate.day.description
            guard let outcome = result.outcome else {
                if session.json { return try Console.json(["result": "already open", "day": day]) }
                return Console.out("The gate is already open today; no unlock was used.")
            }
            struct UnlockJSON: Encodable {
                var result: String
                var day: String
                var reason: String?
                var remaining: Int?
                var nextDay: String?
            }
            switch outcome {
            case .unlocked(let remaining):
                if session.json {
                    return try Console.json(
                        UnlockJSON(result: "unlocked", day: day, reason: reason, remaining: remaining))
                }
                Console.out("The gate is open for the rest of today (\(day)). Reason kept: \(reason)")
                Console.out("Excuses left in this 7-day window: \(remaining).")
            case .alreadyUnlocked(let unlock):
                if session.json {
                    return try Console.json(UnlockJSON(result: "already unlocked", day: day, reason: unlock.reason))
                }
                Console.out("Today is already unlocked (\(unlock.reason)); nothing more was used.")
            case .limitReached(let used, let next):
                if session.json {
                    try Console.json(
                        UnlockJSON(result: "limit reached", day: day, remaining: 0, nextDay: next?.description))
                } else {
                    let list = used.map { "\($0.day): \($0.reason)" }.joined(separator: "; ")
                    Console.out(
                        result.limit == 0
                            ? "Unlocks are turned off (excuses.per-week is 0)."
                            : used.isEmpty
                                ? "No excuses left this week: skips of required habits and empty travel days used them."
                                : "No excuses left this week: \(used.count) unlocks in the last 7 days (\(list)), "
                                    + "with skips of required habits and empty travel days.")
                    if let next {
                        Console.out("The next one is possible on \(next). Until then, the routine opens the gate.")
                    }
                }
                throw ExitCode(MorningProofError.Kind.negative.exitCode)
            }
        }
    }
}
