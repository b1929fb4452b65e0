import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

extension GateCommand {
    /// `morningproof gate sites add|remove|list`: the sites that wait for the morning (the owner's
    /// account, the same list as the server's `/api/gate/settings`).
    struct Sites: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sites",
            abstract: "The sites the shield keeps closed until the morning is proved.",
            discussion: """
                Host patterns such as instagram.com, or *.reddit.com for every subdomain. The browser \
                extension and scripts/shell/block-sites.sh read this list; the hour and days of the \
                shield are config gate.cutoff and gate.days.

                Examples:
                  morningproof gate sites add instagram.com "*.reddit.com"
                  morningproof gate sites remove instagram.com
                  morningproof gate sites
                """,
            subcommands: [List.self, Add.self, Remove.self],
            defaultSubcommand: List.self)

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List the shielded sites.")
            @OptionGroup var global: GlobalOptions

            func run() async throws {
                let session = try await global.session()
                try Sites.show(try await GateSettingsService(database: session.database).settings(), json: session.json)
            }
        }

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Shield more sites.")
            @Argument(help: "Host patterns, such as instagram.com or *.reddit.com.")
            var sites: [String]
            @OptionGroup var global: GlobalOptions

            func validate() throws { try Sites.check(sites, ifNone: "name a site to add, such as instagram.com") }

            func run() async throws {
                let session = try await global.session()
                let settings = try await GateSettingsService(database: session.database).addSites(sites)
                try Sites.show(settings, json: session.json)
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stop shielding sites.")
            @Argument(help: "Host patterns on the list.")
            var sites: [String]
            @OptionGroup var global: GlobalOptions

            func validate() throws { try Sites.check(sites, ifNone: "name a site to remove") }

            func run() async throws {
                let session = try await global.session()
                let settings = try await GateSettingsService(database: session.database).removeSites(sites)
                try Sites.show(settings, json: session.json)
            }
        }

        /// The host patterns `add` and `remove` take, checked before anything is read: at least one
        /// (`ifNone` says what to do), each a valid pattern.
        static func check(_ sites: [String], ifNone: ErrorText) throws {
            try validating {
                if sites.isEmpty { throw MorningProofError.usage(ifNone) }
                _ = try GateSettings.sites(sites)
            }
        }

        /// The list, one site a line, or `{"sites", "cutoff", "days"}` as the API's settings.
        static func show(_ settings: GateSettings, json: Bool) throws {
            if json {
                return try Console.json(GateSettingsJSON(settings))
            }
            guard !settings.sites.isEmpty else {
                return Console.out("No site is shielded. Add one: morningproof gate sites add instagram.com")
            }
            settings.sites.forEach(Console.out)
        }
    }
}
