import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService
import MorningProofSQLite
import MorningProofStoreContract

/// `morningproof-server token create/list/revoke`: long-lived tokens for scripts.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Make, list and revoke API tokens for scripts.",
        subcommands: [Create.self, List.self, Revoke.self])

    /// Runs `body` with the token use cases on the chosen database.
    static func withService<T: Sendable>(_ database: DatabaseOption, _ body: (TokenService) async throws -> T)
        async throws -> T
    {
        try await database.withAccounts { try await body(TokenService(database: $0)) }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a token that never expires; the token alone is the last line printed.")

        @Option(help: "The account's email (default: the owner account, the CLI's data).")
        var email: String?

        @Option(help: "What the token is for, such as \"backup script\".")
        var name: String

        @Option(
            help: ArgumentHelp(
                "full (everything the account may do) or metrics (only POST /api/metrics, for a phone's "
                    + "Health Auto Export).",
                valueName: "scope"))
        var scope = "full"

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            try await ServerCommand.reporting {
                let scope = try TokenService.scope(named: scope)
                let issued = try await TokenCommand.withService(database) {
                    try await $0.createToken(email: email, name: name, now: Date(), scope: scope)
                }
                let only = scope == .metrics ? " It can only post metrics (POST /api/metrics)." : ""
                print(
                    "Token \(issued.record.id) \"\(issued.record.name)\" for \(issued.record.email ?? "the owner account"); it never expires.\(only)"
                )
                print("Keep it secret: it is shown only now.")
                print(issued.token)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every account's tokens (never the tokens themselves).")

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            try await ServerCommand.reporting {
                let tokens = try await TokenCommand.withService(database) { try await $0.tokens() }
                if tokens.isEmpty { return print("No tokens.") }
                let utc = TimeZone(secondsFromGMT: 0)!
                for token in tokens {
                    let expiry = token.expiresAt.map { "expires \(ISOInstant.format($0, in: utc))" } ?? "never expires"
                    let scope = token.scope == .full ? "" : ", \(token.scope.rawValue) only"
                    print(
                        "\(token.id)  \(token.email ?? "owner")  \"\(UserText.visible(token.name))\"  created \(ISOInstant.format(token.createdAt, in: utc)), \(expiry)\(scope)"
                    )
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token by the id `token list` shows.")

        @Argument(help: "The token's id.")
        var id: Int64

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            try await ServerCommand.reporting {
                try await TokenCommand.withService(database) { try await $0.revokeToken(id: id) }
                print("Revoked token \(id).")
            }
        }
    }
}
