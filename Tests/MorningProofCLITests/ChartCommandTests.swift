import Foundation
import Testing

/// `report NAME --png FILE` and `--svg FILE`, run as a person would.
@Suite struct ChartCommandTests {
    static let now = "2026-03-09T12:00:00Z"

    @Test func reportDrawsPictures() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try cli.run(["import", "harsh", InterchangeCommandTests.harsh, "--apply"], now: Self.now)
        let png = cli.directory.appendingPathComponent("gym.png")
        let svg = cli.directory.appendingPathComponent("gym.svg")
        let drawn = try cli.run(["report", "gym", "--png", png.path, "--svg", svg.path], now: Self.now)
        #expect(drawn.status == 0)
        #expect(drawn.stdout == "Drew Gym (26 weeks) in \(png.path) and \(svg.path).\n")
        #expect(try Data(contentsOf: png).prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let text = try String(contentsOf: svg, encoding: .utf8)
        #expect(text.contains(">Gym</text>") && text.contains("prefers-color-scheme"))
        let again = cli.directory.appendingPathComponent("again.png")
        try cli.run(["report", "gym", "--png", again.path], now: Self.now)
        #expect(try Data(contentsOf: again) == Data(contentsOf: png))
        #expect(try cli.run(["report", "--png", png.path], now: Self.now).status == 64)
        #expect(try cli.run(["report", "gym", "--png", png.path, "--theme", "sepia"], now: Self.now).status == 64)
        #expect(try cli.run(["report", "nobody", "--png", png.path], now: Self.now).status == 64)
    }

    @Test func reportsHelpShowsThePictures() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let help = try cli.run(["report", "--help"], passDatabase: false)
        #expect(help.stdout.contains("morningproof report meditate --png meditate.png"))
        #expect(help.stdout.contains("--theme <theme>"))
    }
}
