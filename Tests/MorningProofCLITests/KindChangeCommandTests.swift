import Foundation
import Testing

/// Issue 39: `habit edit NAME --kind photo` keeps the days done before the change as they were, says
/// so with the command that proves the days from then on, and `done` is refused afterwards.
@Suite struct KindChangeCommandTests {
    let now = "2026-03-10T08:00:00Z"

    @Test func aHabitThatBecomesAPhotoHabitKeepsItsDaysAndSaysSo() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Make bed", "--since", "2026-03-07"], now: now).status == 0)
        for day in ["2026-03-07", "2026-03-08", "2026-03-09"] {
            #expect(try cli.run(["done", "Make bed", "--date", day], now: now).status == 0)
        }
        let edited = try cli.run(["habit", "edit", "make", "--kind", "photo"], now: now)
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(
            edited.stdout.contains(
                "Its 3 days done before the change stay as they were; from now on only a photo proves a day: "
                    + "morningproof verify PHOTO --habit \"Make bed\""), "\(edited.stdout)")
        let shown = try cli.run(["habit", "show", "Make bed", "--json"], now: now).stdout
        #expect(shown.contains("\"currentStreak\" : 3") || shown.contains("\"currentStreak\":3"), "\(shown)")
        let done = try cli.run(["done", "Make bed", "--date", "2026-03-09"], now: now)
        #expect(done.status == 64, "\(done.stderr)")
        // Nothing to keep: no line about kept days.
        #expect(try cli.run(["habit", "add", "Walk"], now: now).status == 0)
        let walk = try cli.run(["habit", "edit", "Walk", "--kind", "photo"], now: now)
        #expect(walk.status == 0 && !walk.stdout.contains("stay as they were"), "\(walk.stdout)")
    }

    /// The kind round trip: a done of today by hand on a habit that becomes a photo habit goes back to
    /// pending (days before today stay), and `habit edit` says so.
    @Test func todaysDoneByHandGoesBackToPending() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Make bed", "--since", "2026-03-09"], now: now).status == 0)
        for day in ["2026-03-09", "2026-03-10"] {
            #expect(try cli.run(["done", "Make bed", "--date", day], now: now).status == 0)
        }
        let edited = try cli.run(["habit", "edit", "Make bed", "--kind", "photo"], now: now)
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(
            edited.stdout.contains(
                "Today's done was not a photo: take one: morningproof verify PHOTO --habit \"Make bed\""),
            "\(edited.stdout)")
        #expect(edited.stdout.contains("Its 1 day done before the change stay"), "\(edited.stdout)")
        let shown = try cli.run(["habit", "show", "Make bed", "--json"], now: now).stdout
        #expect(shown.contains("\"currentStreak\" : 1") || shown.contains("\"currentStreak\":1"), "\(shown)")
    }
}
