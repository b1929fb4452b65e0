/// Applies a schedule to a run of day marks: which days are covered, bridged, open or missed.
struct CoverageRules {
    let schedule: Schedule
    let firstDay: LocalDay
    let today: LocalDay
    let weekStart: Int

    /// Judges every day of `marks` (index 0 is `firstDay`). Days before `from` may be skipped
    /// for speed: they come back as `.covered` without being judged.
    func judge(_ marks: [DayMark], from: Int = 0) -> [Coverage] {
        let todayIndex = firstDay.days(to: today)
        let from = max(0, min(from, marks.count))
        switch schedule {
        case .daily:
            return judgeEveryDays(1, marks, todayIndex, from: from)
        case .everyDays(let n):
            return judgeEveryDays(n, marks, todayIndex, from: from)
        case .timesPerWeek(let k):
            return judgePeriods(k, marks, todayIndex, from: from) { $0.startOfWeek(weekStart: weekStart) }
        case .timesPerMonth(let k):
            return judgePeriods(k, marks, todayIndex, from: from) { $0.startOfMonth }
        case .timesInDays(let k, let n):
            return judgeRollingWindow(times: k, days: n, marks, todayIndex, from: from)
        }
    }

    /// The target of a period (or window) of `days` days from the first day on, `bridged` of them
    /// skipped or travel days: k, lowered to what the rest of the period can hold.
    static func target(_ k: Int, days: Int, bridged: Int) -> Int { min(k, days - bridged) }

    /// The done days among `marks` (the recorded days of a period of `days` days) and the target
    /// they must reach: the one count that both the judgement and `HabitTimeline.period` read.
    static func tally(_ k: Int, _ marks: [DayMark], days: Int) -> (done: Int, target: Int) {
        let done = marks.filter { $0 == .done }.count
        let bridged = marks.filter { $0 == .skipped || $0 == .travel }.count
        return (done, target(k, days: days, bridged: bridged))
    }

    /// An empty day that nothing covers: bridged when skipped, open from today on, else missed.
    private func uncovered(_ mark: DayMark, index: Int, todayIndex: Int) -> Coverage {
        if mark == .skipped || mark == .travel { return .bridged }
        return index >= todayIndex ? .open : .missed
    }

    /// A done day covers itself and the next n-1 days. A skipped day bridges even inside that
    /// span: it never adds to a streak, whatever the schedule.
    private func judgeEveryDays(_ n: Int, _ marks: [DayMark], _ todayIndex: Int, from: Int) -> [Coverage] {
        var result = [Coverage](repeating: .covered, count: marks.count)
        var lastDone = Int.min / 2
        // Only a done day within the n-1 days before `from` can reach it.
        for i in max(0, from - n)..<marks.count {
            if marks[i] == .done { lastDone = i }
            if marks[i] == .skipped || marks[i] == .travel {
                result[i] = .bridged
            } else if i - lastDone >= n {
                result[i] = uncovered(marks[i], index: i, todayIndex: todayIndex)
            }
        }
        return result
    }

    /// A calendar period with k done days covers all its days. Skipped days lower the target
    /// to what the rest of the period can hold; the current period stays open while reachable.
    private func judgePeriods(
        _ k: Int, _ marks: [DayMark], _ todayIndex: Int, from: Int, periodStart: (LocalDay) -> LocalDay
    ) -> [Coverage] {
        var result = [Coverage](repeating: .covered, count: marks.count)
        // Begin at the period holding `from` (or at the first day, inside the first period).
        var start = from < marks.count ? max(0, firstDay.days(to: periodStart(firstDay.adding(days: from)))) : from
        while start < marks.count {
            let first = firstDay.adding(days: start)
            let periodBegin = periodStart(first)
            var end = start
            while end + 1 < marks.count, periodStart(firstDay.adding(days: end + 1)) == periodBegin { end += 1 }
            // The period may continue past the recorded days (the current week): count those as available.
            var periodEnd = end
            while periodStart(firstDay.adding(days: periodEnd + 1)) == periodBegin { periodEnd += 1 }
            let range = start...end
            let (done, target) = Self.tally(k, range.map { marks[$0] }, days: periodEnd - start + 1)
            let stillAvailable = (max(start, todayIndex)...max(periodEnd, todayIndex)).filter {
                $0 <= periodEnd && ($0 > end || marks[$0] == .empty)
            }.count
            let verdict: Coverage
            if done >= target {
                verdict = .covered
            } else if periodEnd >= todayIndex && done + stillAvailable >= target {
                verdict = .open
            } else {
                verdict = .missed
            }
            for i in range {
                result[i] = marks[i] == .skipped || marks[i] == .travel ? .bridged : verdict
            }
            start = end + 1
        }
        return result
    }

    /// harsh's rule: a day is covered when some n-day window containing it holds k done days,
    /// at least one of them on or before that day. Days before the habit existed and skipped
    /// days lower a window's target to what it can hold. A past empty day stays open while some
    /// window holding it can still reach its target with a done day on or before it.
    private func judgeRollingWindow(
        times k: Int, days n: Int, _ marks: [DayMark], _ todayIndex: Int, from: Int
    ) -> [Coverage] {
        let count = marks.count
        // Prefix sums over indices shifted by n so that windows may start before the first day
        // and end after the last one.
        func prefix(_ keep: (DayMark) -> Bool) -> [Int] {
            var sums = [Int](repeating: 0, count: count + 2 * n + 1)
            for i in 0..<(count + 2 * n) {
                let index = i - n
                let hit = index >= 0 && index < count && keep(marks[index])
                sums[i + 1] = sums[i] + (hit ? 1 : 0)
            }
            return sums
        }
        let doneSums = prefix { $0 == .done }
        let bridgedSums = prefix { $0 == .skipped || $0 == .travel }
        let recordedSums = prefix { $0 != .empty }
        func countIn(_ sums: [Int], _ from: Int, _ to: Int) -> Int { sums[to + n + 1] - sums[from + n] }

        return (0..<count).map { d in
            if d < from { return .covered }
            if marks[d] == .skipped || marks[d] == .travel { return .bridged }
            var reachable = false
            for s in (d - n + 1)...d {
                let e = s + n - 1
                let beforeHabit = max(0, min(e, -1) - s + 1)
                let target = Self.target(k, days: n - beforeHabit, bridged: countIn(bridgedSums, s, e))
                guard target > 0 else { continue }
                let done = countIn(doneSums, s, e)
                let doneByDay = countIn(doneSums, s, d)
                if done >= target && doneByDay > 0 { return .covered }
                // Still reachable: the window ends today or later, has room for the missing done
                // days, and already holds one on or before d (or d itself is today or later).
                if e >= todayIndex && (doneByDay > 0 || d >= todayIndex) {
                    let futureFrom = max(s, todayIndex)
                    let emptyAhead = e - futureFrom + 1 - countIn(recordedSums, futureFrom, e)
                    if done + emptyAhead >= target { reachable = true }
                }
            }
            let base = uncovered(marks[d], index: d, todayIndex: todayIndex)
            return base == .missed && reachable ? .open : base
        }
    }
}
