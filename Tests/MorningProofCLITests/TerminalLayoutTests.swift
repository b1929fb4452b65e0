import Foundation
import Testing

/// What a person reads in a terminal: `habit list`'s columns line up by the width a terminal gives
/// each character (a CJK character takes two), and `report` explains its marks under the grids.
@Suite struct TerminalLayoutTests {
    static let now = "2026-03-10T08:00:00Z"

    @Test func habitListAlignsItsColumnsByDisplayWidth() throws {
        let cli = try CLI()
        defer { cli.remove() }
        for name in ["Make bed", "Read", "読書"] {
            #expect(try cli.run(["habit", "add", name], now: Self.now).status == 0)
        }
        let lines = try cli.run(["habit", "list"], now: Self.now).stdout.split(separator: "\n").map(String.init)
        // "Make bed" is 8 columns wide; "Read" 4, padded with 4; "読書" two characters, 4 columns, padded
        // with 4 as well (by characters it would get 6, and its kind would stand two columns off).
        #expect(lines == ["Make bed  manual, daily", "Read      manual, daily", "読書      manual, daily"], "\(lines)")
    }

    @Test func reportExplainsItsMarksUnderTheGrids() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Read"], now: "2026-03-01T08:00:00Z").status == 0)
        #expect(try cli.run(["done", "read"], now: "2026-03-02T08:00:00Z").status == 0)
        #expect(try cli.run(["skip", "read"], now: "2026-03-03T08:00:00Z").status == 0)
        let text = try cli.run(["report"], now: Self.now).stdout
        let lines = text.split(separator: "\n").map(String.init)
        let legend = try #require(lines.firstIndex { $0.contains("█ done") }, "\(text)")
        let grid = try #require(lines.firstIndex { $0.contains("█") && !$0.contains("█ done") }, "\(text)")
        #expect(grid < legend, "the legend is under the grid:\n\(text)")
        for words in ["█ done", "▒ covered by the schedule", "- skipped or travel", "· missed", "blank: open or before the habit"] {
            #expect(lines[legend].contains(words), "\(lines[legend])")
        }
    }
}
