import Foundation

@testable import MorningProofCore

/// Parses an ISO 8601 instant with an offset or Z ("2026-03-08T07:00:00Z").
func instant(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: text) else { fatalError("bad instant in a test: \(text)") }
    return date
}

/// A day from `YYYY-MM-DD`, failing loudly on a typo.
func day(_ text: String) -> LocalDay {
    guard let day = LocalDay(text) else { fatalError("bad day in a test: \(text)") }
    return day
}

/// A clock for an IANA zone with a day start given as `HH:MM`.
func clock(_ zone: String, dayStart: String = "00:00") -> DayClock {
    guard let minutes = parseClockTime(dayStart), let clock = DayClock(zoneIdentifier: zone, dayStart: minutes) else {
        fatalError("bad clock in a test: \(zone) \(dayStart)")
    }
    return clock
}

/// Builds a timeline from a compact history: one character per day from `first`,
/// `x` done, `s` skipped, `.` empty, `t` a travel day left empty, `T` a travel day done.
func timeline(
    _ schedule: Schedule, from first: String, _ history: String, today: String? = nil, weekStart: Int = 1
) -> HabitTimeline {
    let firstDay = day(first)
    var entries: [LocalDay: EntryStatus] = [:]
    var travel: Set<LocalDay> = []
    for (offset, mark) in history.enumerated() {
        let date = firstDay.adding(days: offset)
        switch mark {
        case "x": entries[date] = .done
        case "s": entries[date] = .skipped
        case "t": travel.insert(date)
        case "T": entries[date] = .done; travel.insert(date)
        case ".": break
        default: fatalError("bad history mark \(mark)")
        }
    }
    let todayDay = today.map(day) ?? firstDay.adding(days: max(0, history.count - 1))
    return HabitTimeline(
        schedule: schedule, firstDay: firstDay, today: todayDay, entries: entries, travelDays: travel,
        weekStart: weekStart)
}

extension HabitTimeline {
    /// The coverage of each day as one character: c covered, b bridged, o open, m missed.
    var coverageString: String {
        String(
            days.map { status -> Character in
                switch status.coverage {
                case .covered: "c"
                case .bridged: "b"
                case .open: "o"
                case .missed: "m"
                }
            })
    }
}
