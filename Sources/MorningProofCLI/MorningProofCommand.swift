import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

/// The `morningproof` command: its subcommands, and the entry point that maps errors to exit codes.
public struct MorningProofCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "morningproof",
        abstract: "A habit-streak tracker whose habits can prove themselves.",
        discussion: """
            Every command takes --db PATH (or MORNINGPROOF_DB), --now ISO8601 (or MORNINGPROOF_NOW) \
            to replay another moment, and --json where it prints. They may come before the command or \
            after it, with a space or =: morningproof --db=habits.sqlite habit add Run, or \
            morningproof habit add Run --db habits.sqlite.

            Exit codes: 0 ok, 1 negative verdict, 64 usage, 65 bad input data, 66 missing input file, \
            74 database or I/O failure, 75 database busy.
            """,
        subcommands: [
            HabitCommand.self, DoneCommand.self, SkipCommand.self, UndoCommand.self,
            StatusCommand.self, ReportCommand.self, ConfigCommand.self, ImageCommand.self, VerifyCommand.self,
            CheckinCommand.self, GateCommand.self, QuoteCommand.self,
            SourceCommand.self, MetricsCommand.self,
            CheckCommand.self, WatchCommand.self, NotificationsCommand.self,
            ImportCommand.self, ExportCommand.self, BackupCommand.self, RestoreCommand.self,
        ]
    )

    public init() {}

    /// Parses and runs one invocation; returns the process exit code.
    public static func run(arguments: [String]) async -> Int32 {
        do {
            var command = try parseAsRoot(try LeadingGlobalOptions.reorder(arguments))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            try Console.checkOutput()
            return 0
        } catch {
            // --help and --version print on stdout as well: a failure there is still exit 74.
            let code = ExitStatus.report(error)
            guard code == 0 else { return code }
            do {
                try Console.checkOutput()
                return 0
            } catch {
                return ExitStatus.report(error)
            }
        }
    }
}

/// The one place where an error becomes an exit code (sysexits, see docs/architecture.md) and a message.
enum ExitStatus {
    /// Prints what went wrong (errors on stderr) and returns the exit code.
    static func report(_ error: Error) -> Int32 {
        if let (message, code) = of(error) {
            Console.error("morningproof: \(message)")
            return code
        }
        if let error = error as? ExitCode { return error.rawValue }
        // ArgumentParser's own errors: usage, --help, --version.
        let code = MorningProofCommand.exitCode(for: error).rawValue
        let message = MorningProofCommand.fullMessage(for: error)
        if !message.isEmpty {
            if code == 0 { Console.out(message) } else { Console.error(message) }
        }
        return code
    }

    /// The message and exit code of an error from one of our libraries (a `MorningProofError`, or
    /// a lower layer's converted to one); nil for any other.
    static func of(_ error: Error) -> (message: String, code: Int32)? {
        guard let error = MorningProofError(error) else { return nil }
        return (OptionWording.message(error), error.kind.exitCode)
    }
}

/// Runs input checks from `validate()`. ArgumentParser would turn our error into exit 1 with a
/// usage dump; this prints the one line and exits with the error's own code (64 for usage).
func validating(_ checks: () throws -> Void) throws {
    do {
        try checks()
    } catch {
        guard ExitStatus.of(error) != nil else { throw error }
        throw ExitCode(ExitStatus.report(error))
    }
}
