import Foundation
import MorningProofCore

/// One thing to draw, in pixels from the top left corner.
enum Mark: Equatable {
    /// A filled rectangle with rounded corners.
    case rect(x: Int, y: Int, width: Int, height: Int, radius: Int, ink: Ink)
    /// A rectangle's outline, `thickness` pixels inside its bounds.
    case frame(x: Int, y: Int, width: Int, height: Int, thickness: Int, ink: Ink)
    /// Text in the bitmap font, its top left corner at (x, y), each font pixel `scale` pixels wide.
    case text(String, x: Int, y: Int, scale: Int, ink: Ink)
    /// A line through the points, `width` pixels wide.
    case line([Point], width: Double, ink: Ink)
    /// The area between the line through the points and the horizontal line at `baseline`.
    case area([Point], baseline: Double, ink: Ink)
}

struct Point: Equatable {
    var x: Double
    var y: Double
}

/// A picture as marks on a canvas of a given size, which a raster and an SVG writer both draw.
struct ChartDrawing {
    var width: Int
    var height: Int
    var marks: [Mark]
}

/// Where everything of a habit chart goes. Integer pixel positions, so the picture is the same
/// every time; text is 2 font pixels per pixel (the title 3).
struct ChartLayout {
    static let margin = 24
    static let labelColumn = 56
    static let cell = 18
    static let pitch = 22
    static let curveHeight = 120
    /// Room for the legend and the completion line, however few weeks are drawn.
    static let minimumWidth = 648

    let chart: HabitChart

    init(_ chart: HabitChart) { self.chart = chart }

    var drawing: ChartDrawing {
        let firstColumn = chart.range.lowerBound.startOfWeek(weekStart: chart.weekStart)
        let columns = firstColumn.days(to: chart.range.upperBound.startOfWeek(weekStart: chart.weekStart)) / 7 + 1
        let left = Self.margin + Self.labelColumn
        let width = max(left + columns * Self.pitch - (Self.pitch - Self.cell) + Self.margin, Self.minimumWidth)
        var marks: [Mark] = []
        var y = Self.margin
        let textWidth = width - 2 * Self.margin
        marks.append(.text(Self.fit(chart.name, width: textWidth, scale: 3), x: Self.margin, y: y, scale: 3, ink: .text))
        y += 32
        marks.append(.text(Self.fit(chart.summary, width: textWidth, scale: 2), x: Self.margin, y: y, scale: 2, ink: .muted))
        y += 26
        let streaks = "current streak \(chart.currentStreak), longest \(chart.longestStreak)"
        marks.append(.text(streaks, x: Self.margin, y: y, scale: 2, ink: .text))
        y += 22
        let rates = "completion 7d \(Self.percent(chart.completion7)), 30d \(Self.percent(chart.completion30)), "
            + "365d \(Self.percent(chart.completion365)); score \(Self.percent(chart.score))"
        marks.append(.text(Self.fit(rates, width: textWidth, scale: 2), x: Self.margin, y: y, scale: 2, ink: .text))
        y += 34
        marks += monthLabels(firstColumn: firstColumn, columns: columns, left: left, y: y)
        y += 22
        marks += heatmap(firstColumn: firstColumn, columns: columns, left: left, top: y)
        y += 7 * Self.pitch + 12
        marks += legend(y: y)
        y += 40
        marks.append(.text("score", x: Self.margin, y: y, scale: 2, ink: .muted))
        y += 26
        marks += curve(firstColumn: firstColumn, columns: columns, left: left, top: y)
        y += Self.curveHeight + 8 + Self.margin
        return ChartDrawing(width: width, height: y, marks: [.rect(x: 0, y: 0, width: width, height: y, radius: 0, ink: .background)] + marks)
    }

    /// A month's short name above the first column that holds its first week.
    private func monthLabels(firstColumn: LocalDay, columns: Int, left: Int, y: Int) -> [Mark] {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var marks: [Mark] = []
        var lastLabelEnd = Int.min
        var lastMonth = -1
        for column in 0..<columns {
            let day = firstColumn.adding(days: 7 * column)
            guard day.month != lastMonth else { continue }
            lastMonth = day.month
            let x = left + column * Self.pitch
            guard x > lastLabelEnd + 8 else { continue }
            let label = names[day.month - 1]
            marks.append(.text(label, x: x, y: y, scale: 2, ink: .muted))
            lastLabelEnd = x + BitmapFont.width(of: label, scale: 2)
        }
        return marks
    }

    /// Weekday labels and one cell per day drawn, today outlined.
    private func heatmap(firstColumn: LocalDay, columns: Int, left: Int, top: Int) -> [Mark] {
        let labels = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        var marks: [Mark] = (0..<7).map { row in
            .text(labels[(chart.weekStart - 1 + row) % 7], x: Self.margin, y: top + row * Self.pitch + 2, scale: 2, ink: .muted)
        }
        let states = Dictionary(chart.days.map { ($0.day, $0.state) }, uniquingKeysWith: { _, last in last })
        for column in 0..<columns {
            for row in 0..<7 {
                let day = firstColumn.adding(days: 7 * column + row)
                guard let state = states[day] else { continue }
                let x = left + column * Self.pitch
                let y = top + row * Self.pitch
                marks.append(.rect(x: x, y: y, width: Self.cell, height: Self.cell, radius: 3, ink: Ink.of(state: state)))
                if day == chart.today {
                    marks.append(.frame(x: x - 2, y: y - 2, width: Self.cell + 4, height: Self.cell + 4, thickness: 2, ink: .text))
                }
            }
        }
        return marks
    }

    private func legend(y: Int) -> [Mark] {
        var x = Self.margin + Self.labelColumn
        var marks: [Mark] = []
        for (ink, word) in [(Ink.done, "done"), (.covered, "covered"), (.skipped, "skipped"), (.missed, "missed"), (.empty, "open")] {
            marks.append(.rect(x: x, y: y, width: 14, height: 14, radius: 3, ink: ink))
            marks.append(.text(word, x: x + 20, y: y, scale: 2, ink: .muted))
            x += 20 + BitmapFont.width(of: word, scale: 2) + 22
        }
        return marks
    }

    /// The score line over the heatmap's days (each at the middle of its week column's span), with
    /// the area under it and grid lines at 0, 50 and 100%.
    private func curve(firstColumn: LocalDay, columns: Int, left: Int, top: Int) -> [Mark] {
        let right = left + columns * Self.pitch - (Self.pitch - Self.cell)
        var marks: [Mark] = []
        for (fraction, label) in [(0.0, "100%"), (0.5, "50%"), (1.0, "0%")] {
            let y = top + Int(Double(Self.curveHeight) * fraction)
            marks.append(.rect(x: left, y: y, width: right - left, height: 1, radius: 0, ink: .grid))
            let labelX = left - 10 - BitmapFont.width(of: label, scale: 2)
            marks.append(.text(label, x: labelX, y: y - 7, scale: 2, ink: .muted))
        }
        let dayWidth = Double(Self.pitch) / 7
        let points = chart.days.map { day in
            Point(
                x: Double(left) + (Double(firstColumn.days(to: day.day)) + 0.5) * dayWidth,
                y: Double(top) + (1 - min(1, max(0, day.score))) * Double(Self.curveHeight))
        }
        guard !points.isEmpty else { return marks }
        marks.append(.area(points, baseline: Double(top + Self.curveHeight), ink: .area))
        marks.append(.line(points, width: 2.5, ink: .line))
        return marks
    }

    /// `83%`, or `-` when there is no rate.
    static func percent(_ rate: Double?) -> String {
        rate.map { "\(Int(($0 * 100).rounded()))%" } ?? "-"
    }

    /// The text cut with `...` to fit `width` pixels at `scale`.
    static func fit(_ text: String, width: Int, scale: Int) -> String {
        guard BitmapFont.width(of: text, scale: scale) > width else { return text }
        let room = max(0, width / (BitmapFont.advance * scale) - 3)
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix(room)))
        return kept.replacingOccurrences(of: " +$", with: "", options: .regularExpression) + "..."
    }
}
