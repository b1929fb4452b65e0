import Foundation
import MorningProofCore

/// What a habit's picture shows: its name, streaks and completion, a heatmap of the last weeks
/// (weeks as columns, weekdays as rows, like `report`'s text one) and its score over the same days.
/// Drawn to PNG or SVG by one layout, the same pixels every time for the same data.
public struct HabitChart: Sendable, Equatable {
    public var name: String
    /// Kind and schedule in words: `manual, daily`.
    public var summary: String
    public var currentStreak: Int
    public var longestStreak: Int
    public var completion7: Double?
    public var completion30: Double?
    public var completion365: Double?
    /// The score now, 0 to 1.
    public var score: Double
    /// The days the heatmap and the curve span (whole weeks are drawn from the week holding the first).
    public var range: ClosedRange<LocalDay>
    /// The days with a state, oldest first: each with its state (done, covered, skipped, travel,
    /// missed, open) and the score at its end. Other days of the range (before the habit) stay blank.
    public var days: [Day]
    /// Today, outlined in the heatmap.
    public var today: LocalDay
    /// 1 (Monday) to 7 (Sunday): the first row of the heatmap.
    public var weekStart: Int

    public struct Day: Sendable, Equatable {
        public var day: LocalDay
        public var state: String
        public var score: Double

        public init(day: LocalDay, state: String, score: Double) {
            self.day = day
            self.state = state
            self.score = score
        }
    }

    public init(
        name: String, summary: String, currentStreak: Int, longestStreak: Int, completion7: Double?,
        completion30: Double?, completion365: Double?, score: Double, range: ClosedRange<LocalDay>, days: [Day],
        today: LocalDay, weekStart: Int
    ) {
        self.name = name
        self.summary = summary
        self.currentStreak = currentStreak
        self.longestStreak = longestStreak
        self.completion7 = completion7
        self.completion30 = completion30
        self.completion365 = completion365
        self.score = score
        self.range = range
        self.days = days
        self.today = today
        self.weekStart = weekStart
    }

    /// The picture as a PNG file's bytes, on the theme's own background.
    public func png(theme: ChartTheme = .light) throws -> Data {
        try ChartLayout(self).drawing.raster(theme: theme).png()
    }

    /// The picture's pixels, RGBA, row by row.
    public func pixels(theme: ChartTheme = .light) -> ChartRaster {
        ChartLayout(self).drawing.raster(theme: theme)
    }

    /// The picture as SVG text. Without a theme it follows the reader's light or dark preference
    /// (`prefers-color-scheme`), so it reads on a light page and on a dark one.
    public func svg(theme: ChartTheme? = nil) -> String {
        ChartLayout(self).drawing.svg(theme: theme)
    }
}

/// The colours of a picture: dark ink on a light card, or light ink on a dark one.
public enum ChartTheme: String, Sendable, CaseIterable {
    case light, dark
}

/// What a mark is drawn with; each theme gives each its colour.
enum Ink: String, CaseIterable {
    case background, text, muted, grid, empty, done, covered, skipped, missed, line, area

    func color(_ theme: ChartTheme) -> RGBA {
        switch (self, theme) {
        case (.background, .light): RGBA(0xFF_FFFF)
        case (.background, .dark): RGBA(0x0D_1117)
        case (.text, .light): RGBA(0x1F_2328)
        case (.text, .dark): RGBA(0xE6_EDF3)
        case (.muted, .light): RGBA(0x59_636E)
        case (.muted, .dark): RGBA(0x9D_A7B3)
        case (.grid, .light): RGBA(0xD0_D7DE)
        case (.grid, .dark): RGBA(0x30_363D)
        case (.empty, .light): RGBA(0xE4_E7EB)
        case (.empty, .dark): RGBA(0x2D_333B)
        case (.done, .light): RGBA(0x1A_7F37)
        case (.done, .dark): RGBA(0x3F_B950)
        case (.covered, .light): RGBA(0x8C_E0A0)
        case (.covered, .dark): RGBA(0x1B_5E2C)
        case (.skipped, .light): RGBA(0xA8_B1BB)
        case (.skipped, .dark): RGBA(0x57_606A)
        case (.missed, .light): RGBA(0xF4_B8B8)
        case (.missed, .dark): RGBA(0x8E_2A2F)
        case (.line, .light): RGBA(0x09_69DA)
        case (.line, .dark): RGBA(0x58_A6FF)
        case (.area, .light): RGBA(0x09_69DA, alpha: 40)
        case (.area, .dark): RGBA(0x58_A6FF, alpha: 48)
        }
    }

    /// The ink of a heatmap cell in a day's state.
    static func of(state: String) -> Ink {
        switch state {
        case "done": .done
        case "covered": .covered
        case "skipped", "travel": .skipped
        case "missed": .missed
        default: .empty
        }
    }
}

/// A colour with straight (not premultiplied) alpha.
struct RGBA: Equatable {
    var r: UInt8, g: UInt8, b: UInt8, a: UInt8

    init(_ rgb: UInt32, alpha: UInt8 = 255) {
        r = UInt8(rgb >> 16 & 0xFF)
        g = UInt8(rgb >> 8 & 0xFF)
        b = UInt8(rgb & 0xFF)
        a = alpha
    }

    /// `#1f2328`, for SVG.
    var hex: String {
        let digits = [r, g, b].map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }
        return "#" + digits.joined()
    }
}
