import Foundation
import Testing

/// Issue 39 in the CLI: `done` on a photo habit names the `verify` command and stores nothing;
/// `habit add --since` sets a habit's first day in the past, never a photo habit's.
@Suite struct TrustCommandTests {
    let now = "2026-03-10T08:00:00Z"

    @Test func doneOnAPhotoHabitNamesTheVerifyCommandAndStoresNothing() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Make bed", "--kind", "photo"], now: now).status == 0)
        let before = try cli.run(["report", "--format", "json"], now: now).stdout
        let done = try cli.run(["done", "Make bed"], now: now)
        #expect(done.status == 64, "\(done.stderr)")
        #expect(done.stderr.contains("morningproof verify PHOTO --habit \"Make bed\""), "\(done.stderr)")
        #expect(done.stdout.isEmpty)
        #expect(try cli.run(["report", "--format", "json"], now: now).stdout == before)
        // Skip and undo stay.
        #expect(try cli.run(["skip", "make"], now: now).status == 0)
        #expect(try cli.run(["undo", "make"], now: now).status == 0)
    }

    @Test func aHabitsFirstDayCanBeSetInThePastButNotForAPhotoHabit() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let added = try cli.run(["habit", "add", "Read", "--since", "2026-02-01"], now: now)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("since 2026-02-01"), "\(added.stdout)")
        #expect(try cli.run(["done", "Read", "--date", "2026-02-01"], now: now).status == 0)
        #expect(try cli.run(["done", "Read", "--date", "2026-02-02"], now: now).status == 0)
        #expect(try cli.run(["habit", "add", "Walk", "--since", "-3"], now: now).status == 0)
        #expect(try cli.run(["done", "Walk", "--date", "2026-03-07"], now: now).status == 0)
        for (arguments, words) in [
            (
                ["habit", "add", "Make bed", "--kind", "photo", "--since", "-3"],
                "--since is for habits recorded by hand"
            ),
            (["habit", "add", "Run", "--since", "2026-03-11"], "--since 2026-03-11 is in the future"),
            (["habit", "add", "Run", "--since", "last week"], "bad --since \"last week\""),
            (["habit", "add", "Run", "--since", "2026-02-30"], "bad --since"),
        ] {
            let refused = try cli.run(arguments, now: now)
            #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains(words), "\(arguments): \(refused.stderr)")
        }
        let names = try cli.run(["habit", "list"], now: now).stdout
        #expect(!names.contains("Make bed") && !names.contains("Run"), "\(names)")
    }
}
