import Foundation

/// One limit that a camera photo of a room stays within, on one `PhotoLikeness` statistic.
///
/// Set by calibration halfway between the most extreme calibration photo and the value no photo
/// can have (0 for a lower limit, 1 for an upper one), so every calibration photo passes with room.
public struct PhotoLimit: Codable, Sendable, Equatable {
    /// The statistic's name (a `PixelStatistics` feature from `PhotoLikeness.names`).
    public var statistic: String
    /// A photo's value must be at least this (a lower limit), or at most `atMost` (an upper one).
    public var atLeast: Double?
    public var atMost: Double?
    /// The most extreme value among the calibration photos, the one the limit was set from.
    public var calibrationExtreme: Double

    public init(statistic: String, atLeast: Double? = nil, atMost: Double? = nil, calibrationExtreme: Double) {
        self.statistic = statistic
        self.atLeast = atLeast
        self.atMost = atMost
        self.calibrationExtreme = calibrationExtreme
    }

    /// Whether `value` breaks this limit.
    func isBroken(by value: Double) -> Bool {
        if let atLeast, value < atLeast { return true }
        if let atMost, value > atMost { return true }
        return false
    }
}

/// The refusal of pictures that are not camera photos of a room: a flat colour, noise, flat colour
/// blocks, a plain gradient, a screenshot. Checked before the bed model, which only knows rooms.
public enum PhotoLimits {
    /// Each statistic, whether a photo must stay above (true) or below it, in the order checked:
    /// the first broken limit is the one a refusal names.
    static let rules: [(statistic: String, lower: Bool)] = [
        ("lumaRange", true), ("neighbourCorrelation", true), ("nearbyAreaCorrelation", true), ("edgeShare", true),
        ("softGradientShare", true), ("dominantColourShare", false),
    ]

    /// Limits halfway between the most extreme of `photos` and the impossible end of each statistic.
    public static func fitted(to photos: [PixelStatistics]) -> [PhotoLimit] {
        guard !photos.isEmpty else { return [] }
        return rules.map { rule in
            let values = photos.map { $0[rule.statistic] }
            if rule.lower {
                let lowest = values.min() ?? 0
                return PhotoLimit(statistic: rule.statistic, atLeast: round(lowest / 2), calibrationExtreme: lowest)
            }
            let highest = values.max() ?? 1
            return PhotoLimit(
                statistic: rule.statistic, atMost: round(highest + (1 - highest) / 2), calibrationExtreme: highest)
        }
    }

    /// Why a picture with `statistics` is not a camera photo of a room, or nil when it may be one.
    public static func refusal(_ statistics: PixelStatistics, limits: [PhotoLimit]) -> String? {
        guard let broken = limits.first(where: { $0.isBroken(by: statistics[$0.statistic]) }) else { return nil }
        return "not a photo of a room: " + describe(broken.statistic, statistics)
    }

    /// A broken limit in words, with the picture's own figure.
    static func describe(_ statistic: String, _ statistics: PixelStatistics) -> String {
        let value = statistics[statistic]
        let percent = String(format: "%.1f%%", value * 100)
        switch statistic {
        case "lumaRange": return "the picture is nearly uniform (brightness varies by \(percent))"
        case "neighbourCorrelation":
            return String(format: "the picture looks like random noise (neighbouring pixels correlate at %.2f)", value)
        case "nearbyAreaCorrelation":
            return String(
                format: "areas a few pixels apart are unrelated (correlation %.2f), like random blocks or noise", value)
        case "edgeShare": return "the picture has almost no detail (edges cover \(percent) of it)"
        case "softGradientShare":
            return "the picture has almost no soft shading or texture (only \(percent) of it), just flat fills and "
                + "hard edges, like a drawing, flat blocks or a screenshot"
        case "dominantColourShare":
            return "the picture has too few colours (\(PhotoLikeness.dominantColours) colours cover \(percent) of it), "
                + "like a drawing or a screenshot"
        default: return "\(statistic) is \(value)"
        }
    }

    /// Limits are stored to 6 decimal places, so the model file reads cleanly.
    private static func round(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}
