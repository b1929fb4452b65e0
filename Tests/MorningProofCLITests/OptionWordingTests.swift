import Foundation
import TestFixtures
import Testing

/// The libraries name inputs and next steps; the CLI words them as its options and commands, exactly
/// as a person reads them on stderr, with exit 64.
@Suite struct OptionWordingTests {
    let now = "2026-03-10T08:00:00Z"

    func expectLine(_ cli: CLI, _ arguments: [String], _ line: String) throws {
        let result = try cli.run(arguments, now: now)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stderr == "morningproof: \(line)\n", "\(arguments)")
    }

    @Test func habitDetailsNameTheirOptions() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let add = ["habit", "add", "Run"]
        for (options, line) in [
            ("--every 3 --times 2", "bad schedule: --every cannot be combined with --times"),
            ("--every 400", "bad schedule: --every takes 1 to 365 days, not 400"),
            ("--per week", "bad schedule: --per and --in need --times K"),
            ("--times 8 --per week", "bad schedule: --times K --per week takes K from 1 to 7, not 8"),
            ("--times 32 --per month", "bad schedule: --times K --per month takes K from 1 to 31, not 32"),
            ("--times 5 --in 4", "bad schedule: --times 5 does not fit in 4 days"),
            ("--times 3", "bad schedule: --times K needs --per week, --per month or --in N"),
            ("--times 3 --per year", "bad schedule: --per takes week or month, not year"),
            ("--times 3 --per week --in 9", "bad schedule: --per and --in cannot be combined"),
            ("--remind-at 25:00", "bad --remind-at \"25:00\": use HH:MM, such as 07:30"),
            ("--note a\u{1B}b", "--note contains the control character U+001B; use plain text on one line"),
            ("--metric steps --at-least 1 --at-most 2", "give --at-least or --at-most, not both"),
            ("--metric steps", "--metric steps needs a target: --at-least or --at-most, such as --at-least 8000"),
            (
                "--metric steps --at-least 1 --activity running",
                "--activity applies to --metric workouts or workoutMinutes only"
            ),
            (
                "--kind photo --metric steps --at-least 1",
                "a goal (--metric, --at-least, --at-most) needs --kind metric, not photo"
            ),
        ] {
            try expectLine(cli, add + options.split(separator: " ").map(String.init), line)
        }
        let metrics = try cli.run(add + ["--kind", "metric"], now: now)
        #expect(
            metrics.stderr.hasPrefix(
                "morningproof: a metric habit needs a goal, such as --metric steps --at-least 8000 (metrics: "))
        let target = try cli.run(add + ["--at-least", "5"], now: now)
        #expect(target.stderr.hasPrefix("morningproof: --at-least, --at-most and --activity need --metric (metrics: "))
        #expect(try cli.run(["habit", "add", "Read"], now: now).status == 0)
        try expectLine(
            cli, ["habit", "edit", "Read", "--rename", "a\u{7F}"],
            "--rename contains the control character U+007F; use plain text on one line")
    }

    @Test func nextStepsAreCommands() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try expectLine(
            cli, ["done", "Read"],
            "no habit named \"Read\"; there are no habits yet; add one with: morningproof habit add NAME")
        try expectLine(
            cli, ["checkin", "yes"],
            "no check-in is set up yet; create one with: morningproof checkin setup --preset faith (or --preset general)"
        )
        try expectLine(cli, ["checkin", "setup", "--question", " "], "--question needs some words")
        try expectLine(
            cli, ["source", "remove", "/nowhere.json"], "/nowhere.json is not watched (see: morningproof source list)")
        #expect(try cli.run(["habit", "add", "Read"], now: now).status == 0)
        try expectLine(
            cli, ["habit", "remove", "Read"],
            "removing \"Read\" would delete it and its 0 entries; run again with --yes, or keep its history with: morningproof habit archive \"Read\""
        )
        try expectLine(cli, ["report", "--weeks", "0"], "--weeks takes 1 to 520, not 0")
        try expectLine(
            cli, ["report", "--from", "2026-03-05", "--to", "2026-03-04"], "--from 2026-03-05 is after --to 2026-03-04")
        try expectLine(
            cli, ["gate", "unlock", "--reason", " "],
            "--reason needs a few words: why does the gate have to open today?")
    }

    @Test func aPhotoOverThePixelLimitSaysWhichOptionRaisesIt() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let huge = SampleImages.path("broken/huge-60000.jpg")
        let result = try cli.run(["image", "info", huge], now: now)
        #expect(result.status == 65)
        #expect(
            result.stderr.hasSuffix(
                "pixels; refused before decoding (raise it with --max-pixels if the photo is real)\n"))
    }
}
