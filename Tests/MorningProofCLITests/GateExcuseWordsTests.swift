import Foundation
import MorningProofTestSupport
import Testing

/// Issue 39 at the gate's screen: a photo habit is done only by a photo, so the screen never tells
/// to mark it done; a gate opened by a skip is not a routine complete, and the answer names the
/// excuses left.
@Suite struct GateExcuseWordsTests {
    let now = "2026-03-02T07:00:00Z"

    @Test func theGateNamesVerifyForAPhotoHabitAndTheExcusesLeftOnceOpen() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Make bed", "--kind", "photo", "--required"], now: now).status == 0)
        #expect(try cli.run(["habit", "add", "Read", "--required"], now: now).status == 0)
        let closed = try cli.run(["gate"], now: now)
        #expect(closed.status == 1, "\(closed.stderr)")
        #expect(closed.stdout.contains("morningproof verify PHOTO --habit \"Make bed\""), "\(closed.stdout)")
        #expect(!closed.stdout.contains("morningproof done \"Make bed\""), "\(closed.stdout)")
        #expect(closed.stdout.contains("morningproof done \"Read\""), "\(closed.stdout)")
        #expect(try cli.run(["skip", "Make bed"], now: now).status == 0)
        #expect(try cli.run(["done", "Read"], now: now).status == 0)
        let open = try cli.run(["gate"], now: now)
        #expect(open.status == 0, "\(open.stderr)")
        #expect(!open.stdout.contains("routine is complete"), "\(open.stdout)")
        #expect(open.stdout.contains("Make bed skipped"), "\(open.stdout)")
        #expect(open.stdout.contains("1 excuse left this week"), "\(open.stdout)")
    }
}
