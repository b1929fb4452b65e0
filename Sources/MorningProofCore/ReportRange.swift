/// The days a report covers: `from` through `to`, or whole calendar weeks back from `to`.
public struct ReportRange: Sendable, Equatable {
    /// How many weeks a report may go back when no first day is given.
    public static let weekLimits = 1...520
    public static let defaultWeeks = 26

    public let first: LocalDay
    public let last: LocalDay

    /// Refuses a number of weeks outside `weekLimits`.
    public static func checkWeeks(_ weeks: Int) throws {
        guard weekLimits.contains(weeks) else {
            throw MorningProofError.usage("\(field: .weeks) takes 1 to 520, not \(weeks)")
        }
    }

    /// The range from days as a person names them (`LocalDay.resolve`): through `to` (nil: today),
    /// from `from`, else from the start of the calendar week `weeks - 1` weeks before the last one.
    public init(from: String?, to: String?, weeks: Int, today: LocalDay, weekStart: Int) throws {
        try Self.checkWeeks(weeks)
        let last = try to.map { try LocalDay.resolve($0, today: today) } ?? today
        let first =
            try from.map { try LocalDay.resolve($0, today: today) }
            ?? last.startOfWeek(weekStart: weekStart).adding(days: -7 * (weeks - 1))
        guard first <= last else {
            throw MorningProofError.usage("\(field: .from, "\(first)") is after \(field: .to, "\(last)")")
        }
        self.first = first
        self.last = last
    }
}
