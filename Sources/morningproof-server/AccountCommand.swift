import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofServer
import MorningProofService
import MorningProofStoreContract

#if canImport(Glibc)
    import Glibc
#endif

/// `morningproof-server account ...`: the operator's commands for accounts (issue 41).
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "List, disable and help the server's accounts.",
        subcommands: [List.self, Disable.self, Enable.self, ResetPassword.self, SetLogin.self, Delete.self])

    /// Runs `body` with the account use cases on the chosen database.
    static func withService<T: Sendable>(_ database: DatabaseOption, _ body: (AccountService) async throws -> T)
        async throws -> T
    {
        try await database.withAccounts { try await body(OperatorAccounts.service(database: $0)) }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every account: id, email, created, last seen (to the hour), habits, disabled.")

        @Flag(help: "Print JSON: {\"accounts\": [{id, email, createdAt, lastSeenAt, habits, disabled}]}.")
        var json = false

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            try await ServerCommand.reporting {
                let accounts = try await AccountCommand.withService(database) { try await $0.accountList() }
                let utc = TimeZone(secondsFromGMT: 0)!
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
                    encoder.dateEncodingStrategy = .custom { date, encoder in
                        var container = encoder.singleValueContainer()
                        try container.encode(ISOInstant.format(date, in: utc))
                    }
                    let data = try encoder.encode(["accounts": accounts])
                    return print(String(decoding: data, as: UTF8.self))
                }
                for account in accounts {
                    let seen = account.lastSeenAt.map { "last seen \(ISOInstant.format($0, in: utc))" } ?? "never seen"
                    let email = account.email.map { UserText.visible($0) } ?? "(owner, no email)"
                    let habits = account.habits == 1 ? "1 habit" : "\(account.habits) habits"
                    let disabled = account.disabled ? "  DISABLED" : ""
                    print(
                        "\(account.id)  \(email)  created \(ISOInstant.format(account.createdAt, in: utc)), \(seen), \(habits)\(disabled)"
                    )
                }
            }
        }
    }

    /// The account an operator names by its email, and the database it is in.
    struct NamedAccount: ParsableArguments {
        @Argument(help: "The account's email.")
        var email: String

        @OptionGroup var database: DatabaseOption

        /// Disables or enables the account, then says `done`.
        func setDisabled(_ disabled: Bool, done: String) async throws {
            try await ServerCommand.reporting {
                try await AccountCommand.withService(database) {
                    try await $0.setDisabled(email: email, disabled, now: Date())
                }
                print(done)
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Disable an account: its tokens and sign-ins get 403 account_disabled; its data is kept.")

        @OptionGroup var account: NamedAccount

        func run() async throws {
            try await account.setDisabled(
                true,
                done: "Disabled \(account.email): its sessions and sign-ins are refused; `account enable` undoes it.")
        }
    }

    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable an account that was disabled.")

        @OptionGroup var account: NamedAccount

        func run() async throws { try await account.setDisabled(false, done: "Enabled \(account.email).") }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "Print a one-time link (valid an hour) that sets a new password; the link alone is the last line."
        )

        @Argument(help: "The account's email.")
        var email: String

        @Option(
            name: .customLong("public-url"),
            help: ArgumentHelp(
                "The server's URL as people reach it, https://HOST[:PORT], as `serve --public-url` "
                    + "(default: MORNINGPROOF_PUBLIC_URL).",
                valueName: "url"))
        var publicURL: String?

        @OptionGroup var database: DatabaseOption

        func validate() throws { _ = try base() }

        /// The checked public URL, from the option or the environment; nil without either.
        func base() throws -> String? {
            var proxy = ProxyOptions()
            proxy.publicURL = publicURL ?? ProcessInfo.processInfo.environment["MORNINGPROOF_PUBLIC_URL"]
            return try proxy.checkedPublicURL()
        }

        func run() async throws {
            try await ServerCommand.reporting {
                let code = try await AccountCommand.withService(database) {
                    try await $0.issueResetCode(email: email, now: Date())
                }
                let base = try base()
                print(
                    "A one-time link for \(email), valid one hour; it signs out every session of the account once used."
                )
                if base == nil {
                    FileHandle.standardError.write(
                        Data("morningproof-server: no --public-url: put the server's address before the link\n".utf8))
                }
                print("\(base ?? "")/#reset=\(code)")
            }
        }
    }

    struct SetLogin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-login",
            abstract: "Give the owner account (the CLI's data) an email and password, to sign into the web app.")

        @Flag(help: "The owner account, account 1 (the only one this command changes).")
        var owner = false

        @Argument(help: "The email to sign in with.")
        var email: String

        @Flag(help: "Read the password from the first line of stdin instead of asking on the terminal.")
        var passwordStdin = false

        @OptionGroup var database: DatabaseOption

        func validate() throws {
            guard owner else {
                throw ValidationError("say --owner: set-login gives the owner account (account 1) a login")
            }
        }

        func run() async throws {
            try await ServerCommand.reporting {
                let password = try readPassword()
                try await AccountCommand.withService(database) {
                    try await $0.setLogin(accountID: AccountProfile.ownerID, email: email, password: password)
                }
                print("The owner account signs in as \(email) now.")
            }
        }

        /// The password: stdin's first line with --password-stdin, else asked twice on the terminal.
        func readPassword() throws -> String {
            if passwordStdin {
                guard let line = Swift.readLine(strippingNewline: true), !line.isEmpty else {
                    throw MorningProofError.usage("--password-stdin: stdin has no password on its first line")
                }
                return line
            }
            guard isatty(STDIN_FILENO) == 1 else {
                throw MorningProofError.usage("no terminal to ask the password on: give --password-stdin")
            }
            guard let first = getpass("Password for \(email): ").map({ String(cString: $0) }),
                let second = getpass("The same again: ").map({ String(cString: $0) })
            else { throw MorningProofError.usage("no password read") }
            guard first == second else { throw MorningProofError.usage("the two passwords differ; nothing changed") }
            return first
        }
    }
}
