import Foundation
import TestFixtures
import Testing

/// `verify` refuses a HEIC whose header says 100x100 while its picture is 2000x2000 as it refuses an honest
/// oversized photo: exit 65, both sizes named. `image --help` names the four formats the decoder reads.
@Suite struct LyingHeicCommandTests {
    @Test func verifyRefusesTheLieWithExit65() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let lie = SampleImages.path("broken/ispe-lie-2000-as-100.heic")
        let refused = try cli.run(["verify", lie, "--max-pixels", "1000000"])
        #expect(refused.status == 65, "\(refused.stdout)\(refused.stderr)")
        let said = refused.stdout + refused.stderr
        #expect(said.contains("the HEIC header says 100x100 but the picture is 2000x2000"), "\(said)")
        #expect(said.contains("over the limit of 1000000 pixels"), "\(said)")
    }

    @Test func imageHelpNamesTheFourFormats() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let help = try cli.run(["image", "--help"], passDatabase: false)
        #expect(help.status == 0)
        #expect(help.stdout.contains("(JPEG, PNG, HEIC and WebP)"), "\(help.stdout)")
    }
}
