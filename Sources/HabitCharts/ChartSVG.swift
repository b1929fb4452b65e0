import Foundation

extension ChartDrawing {
    /// The marks as SVG. Colours are classes named after their ink (`done` fills, `done-line` strokes):
    /// one theme's colours, or, without a theme, the light ones with the dark ones under
    /// `prefers-color-scheme: dark`.
    func svg(theme: ChartTheme?) -> String {
        var lines = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">",
            "<style>",
        ]
        func rules(_ theme: ChartTheme) -> String {
            Ink.allCases.map { ink in
                let color = ink.color(theme)
                let opacity = color.a == 255 ? "" : ";fill-opacity:\(Self.number(Double(color.a) / 255))"
                return ".\(ink.rawValue){fill:\(color.hex)\(opacity)}.\(ink.rawValue)-line{fill:none;stroke:\(color.hex)}"
            }.joined()
        }
        lines.append(rules(theme ?? .light))
        if theme == nil { lines.append("@media (prefers-color-scheme: dark){\(rules(.dark))}") }
        lines.append("text{font-family:ui-monospace,'DejaVu Sans Mono',monospace}")
        lines.append("</style>")
        for mark in marks {
            switch mark {
            case .rect(let x, let y, let w, let h, let radius, let ink):
                let corner = radius > 0 ? " rx=\"\(radius)\"" : ""
                lines.append(
                    "<rect class=\"\(ink.rawValue)\" x=\"\(x)\" y=\"\(y)\" width=\"\(w)\" height=\"\(h)\"\(corner)/>")
            case .frame(let x, let y, let w, let h, let t, let ink):
                let inset = Double(t) / 2
                lines.append(
                    "<rect class=\"\(ink.rawValue)-line\" x=\"\(Self.number(Double(x) + inset))\" y=\"\(Self.number(Double(y) + inset))\" width=\"\(w - t)\" height=\"\(h - t)\" stroke-width=\"\(t)\"/>"
                )
            case .text(let text, let x, let y, let scale, let ink):
                // The bitmap font's cell is 6 x 8 font pixels with the baseline under row 7; a monospace
                // font of 10 font pixels has about that advance.
                lines.append(
                    "<text class=\"\(ink.rawValue)\" x=\"\(x)\" y=\"\(y + 7 * scale)\" font-size=\"\(10 * scale)\" textLength=\"\(BitmapFont.width(of: text, scale: scale))\">\(Self.escaped(text))</text>"
                )
            case .line(let points, let width, let ink):
                lines.append(
                    "<polyline class=\"\(ink.rawValue)-line\" points=\"\(Self.points(points))\" stroke-width=\"\(Self.number(width))\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>"
                )
            case .area(let points, let baseline, let ink):
                guard let first = points.first, let last = points.last else { continue }
                let closed = points + [Point(x: last.x, y: baseline), Point(x: first.x, y: baseline)]
                lines.append("<polygon class=\"\(ink.rawValue)\" points=\"\(Self.points(closed))\"/>")
            }
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    static func points(_ points: [Point]) -> String {
        points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
    }

    /// A number with at most two decimals and no trailing zeros: `12`, `12.5`, `0.16`.
    static func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let whole = hundredths / 100, fraction = abs(hundredths % 100)
        let sign = hundredths < 0 && whole == 0 ? "-" : ""
        if fraction == 0 { return "\(sign)\(whole)" }
        let digits = fraction < 10 ? "0\(fraction)" : "\(fraction)"
        return "\(sign)\(whole)." + (digits.hasSuffix("0") ? String(digits.dropLast()) : digits)
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
