import Foundation

/// Loop Habit Tracker's habit strength.
/// With f = times / days, m = 0.5^(sqrt(f)/13) and each day score = previous * m + c * (1 - m),
/// where c is the share of the target met in the window ending that day (capped at 1). For
/// f < 1 the window and the count are doubled (3 in 7 becomes 6 in 14). A skipped day leaves
/// the score unchanged.
public enum HabitScore {
    public static func multiplier(frequency f: Double) -> Double { pow(0.5, f.squareRoot() / 13) }

    /// The score at the end of the day at index `through`.
    /// - Parameters:
    ///   - marks: one mark per day from the habit's first day (or from a window before `resuming`).
    ///   - todayIndex: today's position; an empty today is still open and not scored.
    ///   - resuming: the score at the end of the day before `index`, to carry on from.
    static func score(
        marks: [DayMark], todayIndex: Int, frequency: (times: Int, days: Int),
        resuming: (index: Int, score: Double)? = nil, through: Int
    ) -> Double {
        var last = resuming?.score ?? 0
        walk(marks, todayIndex: todayIndex, frequency: frequency, resuming: resuming, through: through) { last = $0 }
        return last
    }

    /// The score at the end of each day from `resuming`'s index (or the first) to the last.
    static func scores(
        marks: [DayMark], todayIndex: Int, frequency: (times: Int, days: Int), resuming: (index: Int, score: Double)?
    ) -> [Double] {
        var result: [Double] = []
        result.reserveCapacity(marks.count)
        walk(marks, todayIndex: todayIndex, frequency: frequency, resuming: resuming, through: marks.count - 1) {
            result.append($0)
        }
        return result
    }

    /// Hands `body` the score at the end of each day through `through`, in order, from `resuming`'s
    /// index on when given (earlier days only count towards the window).
    private static func walk(
        _ marks: [DayMark], todayIndex: Int, frequency: (times: Int, days: Int), resuming: (index: Int, score: Double)?,
        through: Int, _ body: (Double) -> Void
    ) {
        var times = frequency.times, days = frequency.days
        let f = Double(times) / Double(days)
        if f < 1 { times *= 2; days *= 2 }
        let m = multiplier(frequency: f)
        var score = resuming?.score ?? 0.0
        let first = resuming?.index ?? 0
        var rollingDone = 0
        for i in 0..<min(marks.count, through + 1) {
            let mark = marks[i]
            if mark == .done { rollingDone += 1 }
            if i - days >= 0, marks[i - days] == .done { rollingDone -= 1 }
            guard i >= first else { continue }
            if mark != .skipped && mark != .travel && !(mark == .empty && i >= todayIndex) {
                let completion = min(1, Double(rollingDone) / Double(times))
                score = score * m + completion * (1 - m)
            }
            body(score)
        }
    }
}
