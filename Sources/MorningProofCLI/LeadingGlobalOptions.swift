import ArgumentParser
import MorningProofCore

/// `morningproof --db PATH --now T habit add Foo`: the shared options given before the command.
///
/// ArgumentParser reads `--db`, `--now` and `--json` only where a command declares them, after
/// its name. Leading ones are moved to just after the full subcommand path (`habit add`,
/// `checkin setup`), never to the end: `gate --exec CMD ARGS...` hands everything after it to
/// CMD, and `--` ends the options.
enum LeadingGlobalOptions {
    /// Options that take a value (`--db PATH` or `--db=PATH`).
    static let valued: Set<String> = ["--db", "--now"]
    /// Options that are flags.
    static let flags: Set<String> = ["--json"]

    /// What ArgumentParser itself answers before a command.
    static let builtIn: Set<String> = [
        "-h", "--help", "-help", "--version", "--generate-completion-script", "--experimental-dump-help", "--",
    ]

    /// The arguments with any leading global options moved after the subcommand path; unchanged
    /// when there are none. `--help` and the like stop the move and are left for ArgumentParser;
    /// any other option before the command is a usage error.
    static func reorder(_ arguments: [String], root: ParsableCommand.Type = MorningProofCommand.self) throws
        -> [String]
    {
        var moved: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if flags.contains(argument) {
                moved.append(argument)
                index += 1
            } else if valued.contains(name) && argument.contains("=") {
                moved.append(argument)
                index += 1
            } else if valued.contains(argument) && index + 1 < arguments.count {
                moved += [argument, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        if index < arguments.count, arguments[index].hasPrefix("-"), arguments[index] != "-" {
            let name = arguments[index].split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            if !builtIn.contains(name) {
                throw MorningProofError.usage(
                    valued.contains(name)
                        ? "\(name) needs a value, such as \(name) \(name == "--db" ? "PATH" : "2026-03-08T07:30:00Z")"
                        : "unknown option \"\(arguments[index])\" before the command (there: --db, --now, --json)")
            }
        }
        guard !moved.isEmpty else { return arguments }
        var rest = Array(arguments[index...])
        var command = root
        var insertAt = 0
        while insertAt < rest.count, let sub = subcommand(of: command, named: rest[insertAt]) {
            command = sub
            insertAt += 1
        }
        rest.insert(contentsOf: moved, at: insertAt)
        return rest
    }

    /// The subcommand of `command` called `name` (or one of its aliases), if any.
    static func subcommand(of command: ParsableCommand.Type, named name: String) -> ParsableCommand.Type? {
        command.configuration.subcommands.first { sub in
            sub._commandName == name || sub.configuration.aliases.contains(name)
        }
    }
}
