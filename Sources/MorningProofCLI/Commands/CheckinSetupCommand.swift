import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofService

extension CheckinTexts.Preset: ExpressibleByArgument {}

extension CheckinCommand {
    struct Setup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "setup",
            abstract: "Create the check-in habit, or change its question and texts.",
            discussion: """
                Presets:
                  faith    "Have you spent time with God today?", Matthew 6:33 (King James Version), and \
                four suggestions: read a chapter from the Bible, pray for 10 minutes, listen to worship \
                music, journal what God is speaking.
                  general  "Have you done what matters most this morning?" with neutral suggestions.
                The first setup without --preset uses general; running it again with no option keeps the \
                texts. --question replaces only the question. Edit any text later with config set \
                checkin.question, checkin.verse or checkin.suggestions ("one; two", separated by ;).

                Examples:
                  morningproof checkin setup --preset faith
                  morningproof checkin setup --question "Did you read before opening the news?"
                """)

        @Option(help: "The question asked each morning.")
        var question: String?

        @Option(help: "Ready-made texts: faith or general.")
        var preset: CheckinTexts.Preset?

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let session = try await global.session()
            let setup = try await session.checkins.setup(preset: preset, question: question, now: session.now)
            let habit = setup.habit, texts = setup.texts
            if session.json { return try Console.json(CheckinSetupJSON(setup)) }
            Console.out(
                setup.created
                    ? "Added the check-in \"\(habit.shownName)\"." : "Updated the check-in \"\(habit.shownName)\".")
            Console.out("  question: \(UserText.visible(texts.question))")
            if !texts.verse.isEmpty { Console.out("  verse: \(UserText.visible(texts.verse))") }
            Console.out("  suggestions: \(UserText.visible(texts.suggestions.joined(separator: "; ")))")
            Console.out("Answer it with: morningproof checkin   (or checkin yes / checkin no)")
        }
    }
}
