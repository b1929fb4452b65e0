import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofServer
import MorningProofService

#if canImport(Glibc)
    import Glibc
#endif

extension AccountCommand {
    /// `morningproof-server account delete EMAIL [--yes]`: the account and everything it owns, after
    /// a confirmation on the terminal (or `--yes`); the owner account is refused.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an account with all its habits, entries, proofs, metrics and sessions (not the owner's).",
            discussion: "Asks to confirm on a terminal; a script says --yes. The email can sign up again.")

        @Argument(help: "The account's email.")
        var email: String

        @Flag(help: "Delete without asking (needed when stdin is not a terminal).")
        var yes = false

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            try await ServerCommand.reporting {
                if !yes { try confirm() }
                let id = try await AccountCommand.withService(database) { try await $0.deleteAccount(email: email) }
                print("Deleted account \(id) (\(UserText.visible(email))) and everything it owned.")
            }
        }

        /// Asks on the terminal; refuses (64) without one, and stops (64, nothing deleted) on any answer but "yes".
        func confirm() throws {
            guard isatty(STDIN_FILENO) == 1 else {
                throw MorningProofError.usage("no terminal to confirm on: give --yes to delete \(email)")
            }
            FileHandle.standardError.write(
                Data("Delete \(UserText.visible(email)) and all its data for good? Type yes: ".utf8))
            guard Swift.readLine(strippingNewline: true)?.lowercased() == "yes" else {
                throw MorningProofError.usage("not confirmed; nothing deleted")
            }
        }
    }
}
