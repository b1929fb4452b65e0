/// How often a habit is due.
public enum Schedule: Hashable, Sendable {
    /// Every day.
    case daily
    /// Once every `n` days: a done day covers itself and the next n-1 days.
    case everyDays(Int)
    /// `times` done days in each calendar week (starting on the configured week start).
    case timesPerWeek(Int)
    /// `times` done days in each calendar month.
    case timesPerMonth(Int)
    /// `times` done days in any rolling window of `days` days (harsh's rule).
    case timesInDays(times: Int, days: Int)

    /// The most days a schedule counts in (`every`, `within`, and so `times`): one year.
    public static let maxDays = 365

    /// Builds a schedule from the command-line options, checking the numbers.
    public static func from(every: Int?, times: Int?, per: String?, within: Int?) throws -> Schedule {
        func bad(_ why: ErrorText) -> MorningProofError { .usage("bad schedule: \(why)") }
        if let every {
            guard times == nil, per == nil, within == nil else {
                throw bad("\(field: .every) cannot be combined with \(field: .times)")
            }
            guard (1...maxDays).contains(every) else {
                throw bad("\(field: .every) takes 1 to \(maxDays) days, not \(every)")
            }
            return every == 1 ? .daily : .everyDays(every)
        }
        guard let times else {
            if per != nil || within != nil {
                throw bad("\(field: .per) and \(field: .within) need \(field: .times, "K")")
            }
            return .daily
        }
        switch (per?.lowercased(), within) {
        case ("week", nil):
            guard (1...7).contains(times) else {
                throw bad("\(settings: (.times, "K"), (.per, "week")) takes K from 1 to 7, not \(times)")
            }
            return .timesPerWeek(times)
        case ("month", nil):
            guard (1...31).contains(times) else {
                throw bad("\(settings: (.times, "K"), (.per, "month")) takes K from 1 to 31, not \(times)")
            }
            return .timesPerMonth(times)
        case (nil, let days?):
            guard (1...maxDays).contains(days) else {
                throw bad("\(field: .within) takes 1 to \(maxDays) days, not \(days)")
            }
            guard (1...days).contains(times) else {
                throw bad("\(field: .times, "\(times)") does not fit in \(days) days")
            }
            return times == days ? .daily : .timesInDays(times: times, days: days)
        case (nil, nil):
            throw bad(
                "\(field: .times, "K") needs \(field: .per, "week"), \(field: .per, "month") or \(field: .within, "N")")
        case (let other?, nil):
            throw bad("\(field: .per) takes week or month, not \(other)")
        default:
            throw bad("\(field: .per) and \(field: .within) cannot be combined")
        }
    }

    /// The fields of a create or edit request that give this schedule back through `from`:
    /// `every` (1 for daily), or `times` with `per` (week|month), or `times` with `within`.
    public var fields: (every: Int?, times: Int?, per: String?, within: Int?) {
        switch self {
        case .daily: (1, nil, nil, nil)
        case .everyDays(let n): (n, nil, nil, nil)
        case .timesPerWeek(let k): (nil, k, "week", nil)
        case .timesPerMonth(let k): (nil, k, "month", nil)
        case .timesInDays(let k, let n): (nil, k, nil, n)
        }
    }

    /// The stored form: `daily`, `every:3`, `week:3`, `month:10`, `in:4:10`.
    public var storageValue: String {
        switch self {
        case .daily: "daily"
        case .everyDays(let n): "every:\(n)"
        case .timesPerWeek(let k): "week:\(k)"
        case .timesPerMonth(let k): "month:\(k)"
        case .timesInDays(let k, let n): "in:\(k):\(n)"
        }
    }

    /// The schedule a stored form names; nil for an unknown form and for numbers `from` refuses
    /// (`every:0`, `in:5:0` in a file): the rules divide by them.
    public init?(storageValue: String) {
        let parts = storageValue.split(separator: ":").map(String.init)
        let numbers = parts.dropFirst().compactMap { Int($0) }
        let schedule: Schedule?
        switch (parts.first, numbers.count) {
        case ("daily", 0): schedule = .daily
        case ("every", 1): schedule = try? .from(every: numbers[0], times: nil, per: nil, within: nil)
        case ("week", 1): schedule = try? .from(every: nil, times: numbers[0], per: "week", within: nil)
        case ("month", 1): schedule = try? .from(every: nil, times: numbers[0], per: "month", within: nil)
        case ("in", 2): schedule = try? .from(every: nil, times: numbers[0], per: nil, within: numbers[1])
        default: schedule = nil
        }
        guard let schedule else { return nil }
        self = schedule
    }

    /// In words: "daily", "every 3 days", "3 times a week", "4 times in 10 days".
    public var summary: String {
        switch self {
        case .daily: "daily"
        case .everyDays(let n): "every \(n) days"
        case .timesPerWeek(let k): k == 1 ? "once a week" : "\(k) times a week"
        case .timesPerMonth(let k): k == 1 ? "once a month" : "\(k) times a month"
        case .timesInDays(let k, let n): "\(k) \(k == 1 ? "time" : "times") in \(n) days"
        }
    }

    /// Loop Habit Tracker's frequency as (times, days): daily 1/1, 3 a week 3/7, a month 30 days.
    public var frequency: (times: Int, days: Int) {
        switch self {
        case .daily: (1, 1)
        case .everyDays(let n): (1, n)
        case .timesPerWeek(let k): (k, 7)
        case .timesPerMonth(let k): (k, 30)
        case .timesInDays(let k, let n): (k, n)
        }
    }
}
