import Foundation
import MorningProofCore
import PhotoVerification
import TestFixtures
import Testing

@testable import HabitCharts

/// The committed reference pictures are this project's own renders of `sample`. After a deliberate
/// change to the picture, write them again with MORNINGPROOF_WRITE_CHART_REFERENCE=1 and look at them.
@Suite struct HabitChartTests {
    static let fixtures = Fixtures.url("charts")

    /// 26 weeks of a daily habit ending on Tuesday 2026-03-10, with every state and a score that rises,
    /// dips and recovers.
    static let sample: HabitChart = {
        let today = LocalDay("2026-03-10")!
        let first = LocalDay("2025-09-15")!
        var score = 0.0
        let days = first.through(today).enumerated().map { index, day -> HabitChart.Day in
            let state: String
            switch index {
            case 60..<66: state = "missed"
            case _ where index % 17 == 5: state = "skipped"
            case _ where index % 11 == 3: state = "missed"
            case _ where index % 9 == 4: state = "covered"
            case _ where day == today: state = "open"
            default: state = "done"
            }
            if state == "done" || state == "covered" { score = score * 0.948 + 0.052 }
            if state == "missed" { score *= 0.948 }
            return HabitChart.Day(day: day, state: state, score: score)
        }
        return HabitChart(
            name: "Meditate \u{1F9D8} every morning", summary: "manual, daily", currentStreak: 12, longestStreak: 41,
            completion7: 6.0 / 7, completion30: 0.8, completion365: nil, score: score, range: first...today,
            days: days, today: today, weekStart: 1)
    }()

    @Test(arguments: ChartTheme.allCases)
    func theRenderMatchesTheReferencePicture(theme: ChartTheme) throws {
        let reference = Self.fixtures.appendingPathComponent("reference-\(theme.rawValue).png")
        let png = try Self.sample.png(theme: theme)
        if ProcessInfo.processInfo.environment["MORNINGPROOF_WRITE_CHART_REFERENCE"] == "1" {
            try FileManager.default.createDirectory(at: Self.fixtures, withIntermediateDirectories: true)
            try png.write(to: reference)
        }
        let expected = try ImageDecoder.decode(data: try Data(contentsOf: reference), workingLongSide: 0).raster
        let actual = Self.sample.pixels(theme: theme)
        #expect(actual.width == expected.width && actual.height == expected.height)
        guard actual.width == expected.width, actual.height == expected.height else { return }
        // Within a small tolerance: antialiased edges may round differently on another machine.
        var total = 0
        var far = 0
        for index in 0..<(actual.width * actual.height) {
            for channel in 0..<3 {
                let difference = abs(Int(actual.pixels[index * 4 + channel]) - Int(expected.pixels[index * 3 + channel]))
                total += difference
                if difference > 24 { far += 1 }
            }
        }
        let mean = Double(total) / Double(actual.width * actual.height * 3)
        #expect(mean < 0.5, "mean difference \(mean) per channel")
        #expect(far <= actual.width * actual.height / 1000, "\(far) channels differ by more than 24")
    }

    @Test func thePictureIsTheSameEveryTimeAndItsPNGIsLossless() throws {
        let first = try Self.sample.png()
        #expect(try Self.sample.png() == first)
        let decoded = try ImageDecoder.decode(data: first, workingLongSide: 0).raster
        let pixels = Self.sample.pixels()
        #expect(decoded.pixels == pixels.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element))
        #expect(pixels.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
        #expect(Self.sample.svg() == Self.sample.svg())
    }

    @Test func theSVGFollowsTheReadersThemeUnlessOneIsAsked() {
        let auto = Self.sample.svg()
        #expect(auto.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""))
        #expect(auto.contains("@media (prefers-color-scheme: dark){"))
        #expect(auto.contains(".done{fill:#1a7f37}"))
        #expect(!Self.sample.svg(theme: .dark).contains("@media"))
        #expect(Self.sample.svg(theme: .dark).contains(".done{fill:#3fb950}"))
        // The true name, escaped for XML; the same number of cells as days drawn.
        #expect(auto.contains(">Meditate \u{1F9D8} every morning</text>"))
        let cells = auto.components(separatedBy: " rx=\"3\"/>").count - 1
        #expect(cells == Self.sample.days.count + 5)  // the days, and the legend's five squares
        var risky = Self.sample
        risky.name = "<b>&\"x\""
        #expect(risky.svg().contains(">&lt;b&gt;&amp;&quot;x&quot;</text>"))
    }

    @Test func aShortHistoryStillSpansTheWholeRangeAndTheLegend() {
        var recent = Self.sample
        recent.days = Array(recent.days.suffix(10))
        let full = ChartLayout(Self.sample).drawing, short = ChartLayout(recent).drawing
        #expect(short.width == full.width && short.height == full.height)
        func cells(_ drawing: ChartDrawing) -> Int {
            drawing.marks.filter { if case .rect(_, _, 18, 18, 3, _) = $0 { true } else { false } }.count
        }
        #expect(cells(short) == 10)
        var fewWeeks = recent
        fewWeeks.range = LocalDay("2026-03-01")!...LocalDay("2026-03-10")!
        let narrow = ChartLayout(fewWeeks).drawing
        #expect(narrow.width == ChartLayout.minimumWidth)
        let rightmost = narrow.marks.map { mark -> Int in
            if case .text(let text, let x, _, let scale, _) = mark { return x + BitmapFont.width(of: text, scale: scale) }
            return 0
        }.max() ?? 0
        #expect(rightmost <= narrow.width - ChartLayout.margin)
    }

    @Test func theFontDrawsEveryPrintableCharacterAndAQuestionMarkForOthers() {
        for code in 33...126 {
            let scalar = Unicode.Scalar(UInt8(code))
            let pixels = (0..<8).flatMap { row in (0..<5).map { BitmapFont.isSet(scalar, column: $0, row: row) } }
            #expect(pixels.contains(true), "\(scalar) has no pixel")
        }
        #expect(!(0..<8).contains { row in (0..<5).contains { BitmapFont.isSet(" ", column: $0, row: row) } })
        for row in 0..<8 {
            for column in 0..<5 {
                #expect(BitmapFont.isSet("é", column: column, row: row) == BitmapFont.isSet("?", column: column, row: row))
            }
        }
        #expect(BitmapFont.width(of: "Mon", scale: 2) == 34)
        #expect(ChartLayout.fit("A very long name indeed", width: 120, scale: 2) == "A very...")
    }
}
