import Foundation

/// Loop Habit Tracker's habit strength.
/// With f = times / days, m = 0.5^(sqrt(f)/13) and each day score = previous * m + c * (1 - m),
/// where c is the share of the target met in the window ending that day (capped at 1). For
/// f < 1 the window and the count are doubled (3 in 7 becomes 6 in 14). A skipped day leaves
/// the score unchanged.
public enum HabitScore {
    public static func multiplier(frequency f: Double) -> Double { pow(0.5, f.squareRoot() / 13) }

    /// - Parameters:
    ///   - marks: one mark per day from the habit's first day.
    ///   - todayIndex: today's position; an empty today is still open and not scored.
    public static func score(marks: [DayMark], todayIndex: Int, frequency: (times: Int, days: Int)) -> Double {
        var last = 0.0
        walk(marks, todayIndex: todayIndex, frequency: frequency) { last = $0 }
        return last
    }

    /// The score at the end of each day of `marks` (a skipped or still open day keeps the one before).
    public static func scores(marks: [DayMark], todayIndex: Int, frequency: (times: Int, days: Int)) -> [Double] {
        var result: [Double] = []
        result.reserveCapacity(marks.count)
        walk(marks, todayIndex: todayIndex, frequency: frequency) { result.append($0) }
        return result
    }

    /// Hands `body` the score at the end of each day, in order.
    private static func walk(
        _ marks: [DayMark], todayIndex: Int, frequency: (times: Int, days: Int), _ body: (Double) -> Void
    ) {
        var times = frequency.times, days = frequency.days
        let f = Double(times) / Double(days)
        if f < 1 { times *= 2; days *= 2 }
        let m = multiplier(frequency: f)
        var score = 0.0
        var rollingDone = 0
        for (i, mark) in marks.enumerated() {
            if mark == .done { rollingDone += 1 }
            if i - days >= 0, marks[i - days] == .done { rollingDone -= 1 }
            if mark != .skipped && mark != .travel && !(mark == .empty && i >= todayIndex) {
                let completion = min(1, Double(rollingDone) / Double(times))
                score = score * m + completion * (1 - m)
            }
            body(score)
        }
    }
}
