import ArgumentParser
import Foundation
import MorningProofService

extension HabitCommand {
    /// `morningproof habit reference add|list|remove`: photos of the person's own made bed, which a
    /// photo habit's proofs must then show.
    struct Reference: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reference",
            abstract: "Reference photos of your own made bed: later proofs must show the same place.",
            discussion: """
                Up to 5 per photo habit. Only features of each photo's scene are kept (edges by \
                direction on a coarse grid), never the photo: no picture of a bedroom is stored.
                """,
            subcommands: [Add.self, List.self, Remove.self],
            defaultSubcommand: List.self)

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Add a photo of your made bed as a reference of a photo habit.")

            @Argument(help: "The photo habit (a unique prefix will do).")
            var name: String

            @Argument(help: "The photo (JPEG, PNG, HEIC or WebP).")
            var photo: String

            @OptionGroup var global: GlobalOptions

            func run() async throws {
                let session = try await global.session()
                let service = ReferencePhotoService(database: session.database, clock: session.clock)
                let habit = try await session.database.findHabit(named: name)
                let added = try await service.add(
                    .file(path: photo), to: habit, now: session.now, judging: PhotoJudging())
                let json = ReferencePhotoJSON(added, zone: session.clock.timeZone)
                if session.json { return try Console.json(json) }
                Console.out(
                    "Added reference photo \(added.number) of \(ReferencePhotoService.limit) to \"\(habit.name)\" "
                        + "(\(added.width)x\(added.height)); only its scene features are kept.")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "List a photo habit's reference photos.")

            @Argument(help: "The photo habit (a unique prefix will do).")
            var name: String

            @OptionGroup var global: GlobalOptions

            func run() async throws {
                let session = try await global.session()
                let service = ReferencePhotoService(database: session.database, clock: session.clock)
                let habit = try await session.database.findHabit(named: name)
                let document = ReferencePhotosJSON(try await service.list(habit), zone: session.clock.timeZone)
                if session.json { return try Console.json(document) }
                guard !document.references.isEmpty else {
                    return Console.out("\"\(habit.name)\" has no reference photos: any made bed proves it.")
                }
                for reference in document.references {
                    Console.out(
                        "\(reference.number). \(reference.width)x\(reference.height), added \(reference.addedAt)")
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove", abstract: "Remove a reference photo by its number in `list`.")

            @Argument(help: "The photo habit (a unique prefix will do).")
            var name: String

            @Argument(help: "The reference's number, as `habit reference list` shows it.")
            var number: Int

            @OptionGroup var global: GlobalOptions

            func validate() throws {
                guard number > 0 else { throw ValidationError("the number is 1 or more, as `list` shows it") }
            }

            func run() async throws {
                let session = try await global.session()
                let service = ReferencePhotoService(database: session.database, clock: session.clock)
                let habit = try await session.database.findHabit(named: name)
                try await service.remove(number: number, of: habit)
                if session.json { return try Console.json(["removed": number]) }
                Console.out("Removed reference photo \(number) of \"\(habit.name)\".")
            }
        }
    }
}
