import Foundation

/// One account's weekly budget of excuses, judged over its whole history: at most `perWeek` in any
/// rolling 7 days, shared by gate unlocks, skips of required habits and travel days left empty.
/// Pure: the stores gather what it is judged from, the use cases and the habit states apply it.
///
/// Unlocks and skips were allowed when they were made, so they always count. A travel day of a
/// required habit left empty is the one excuse judged here: it is excused while the rolling week
/// ending on it has one left (days in order, habits by id), else it is a missed day.
public struct ExcuseBudget: Sendable, Equatable {
    /// Excuses in any 7 days when `excuses.per-week` (or its alias `gate.unlocks-per-week`) is not set.
    public static let defaultPerWeek = 2
    /// The values `excuses.per-week` may take.
    public static let perWeekLimits = 0...7

    public let perWeek: Int
    /// Excuses spent on each day.
    public let spent: [LocalDay: Int]
    /// Per required habit, its empty travel days an excuse covered (the streak runs through them).
    public let excusedTravel: [Int64: Set<LocalDay>]
    /// Per required habit, its empty travel days no excuse was left for: missed days.
    public let missedTravel: [Int64: Set<LocalDay>]

    /// A required habit as the budget sees it: its id and first day.
    public struct RequiredHabit: Sendable, Equatable {
        public let id: Int64
        public let firstDay: LocalDay

        public init(id: Int64, firstDay: LocalDay) {
            self.id = id
            self.firstDay = firstDay
        }
    }

    /// Judges the budget.
    /// - Parameters:
    ///   - unlockDays: the days the gate was unlocked.
    ///   - required: the required habits (check-ins aside: the gate judges them by their answer).
    ///   - entries: entries of those habits: every skip, and any entry on a travel day.
    ///   - travelDays: the days the account's zone changed.
    public init(
        perWeek: Int, unlockDays: [LocalDay], required: [RequiredHabit],
        entries: [(habitID: Int64, day: LocalDay, status: EntryStatus)], travelDays: Set<LocalDay>
    ) {
        self.perWeek = perWeek
        var spent: [LocalDay: Int] = [:]
        var recorded: Set<String> = []
        let requiredIDs = Set(required.map(\.id))
        for day in unlockDays { spent[day, default: 0] += 1 }
        for entry in entries where requiredIDs.contains(entry.habitID) {
            recorded.insert("\(entry.habitID)|\(entry.day)")
            if entry.status == .skipped { spent[entry.day, default: 0] += 1 }
        }
        var excused: [Int64: Set<LocalDay>] = [:]
        var missed: [Int64: Set<LocalDay>] = [:]
        for day in travelDays.sorted() {
            for habit in required.sorted(by: { $0.id < $1.id })
            where day >= habit.firstDay && !recorded.contains("\(habit.id)|\(day)") {
                if Self.used(spent, endingOn: day) < perWeek {
                    spent[day, default: 0] += 1
                    excused[habit.id, default: []].insert(day)
                } else {
                    missed[habit.id, default: []].insert(day)
                }
            }
        }
        self.spent = spent
        excusedTravel = excused
        missedTravel = missed
    }

    /// Excuses spent in the rolling week that ends on `day`.
    static func used(_ spent: [LocalDay: Int], endingOn day: LocalDay) -> Int {
        (0..<7).reduce(0) { $0 + (spent[day.adding(days: -$1)] ?? 0) }
    }

    /// Excuses left in the rolling week that ends on `day`.
    public func left(on day: LocalDay) -> Int {
        max(0, perWeek - Self.used(spent, endingOn: day))
    }

    /// The first day after `day` on which one more excuse is left than on `day` (nothing more spent
    /// meanwhile); nil when none was spent in that week, or the budget is 0.
    public func backOn(after day: LocalDay) -> LocalDay? {
        guard perWeek > 0 else { return nil }
        let spentSoFar = spent.filter { $0.key <= day }
        let now = max(0, perWeek - Self.used(spentSoFar, endingOn: day))
        return (1...7).lazy.map { day.adding(days: $0) }
            .first { perWeek - Self.used(spentSoFar, endingOn: $0) > now }
    }

    /// Whether skipping `habitID` on `day` is allowed: the day is already skipped (nothing more is
    /// spent), it is a travel day an excuse already covers, or every rolling week that holds the day
    /// (those ending on it and on the 6 days after) has an excuse left, so that a skip of an earlier
    /// day never takes an excuse a later week has spent already.
    public func allowsSkip(of habitID: Int64, on day: LocalDay, alreadySkipped: Bool) -> Bool {
        alreadySkipped || excusedTravel[habitID]?.contains(day) == true || fullWeek(holding: day) == nil
    }

    /// Refuses (`no_excuses_left`) a skip that `allowsSkip` does not allow: with the standing's words
    /// when the week ending on `day` has none left, else naming the later week that has none.
    public func checkSkip(of habitID: Int64, on day: LocalDay, alreadySkipped: Bool) throws {
        guard !allowsSkip(of: habitID, on: day, alreadySkipped: alreadySkipped), let last = fullWeek(holding: day)
        else { return }
        guard last != day else { throw standing(on: day).refusal }
        let spent = perWeek == 1 ? "their one excuse" : "all \(perWeek) excuses"
        throw MorningProofError(
            .refused, code: "no_excuses_left",
            "No excuses left for \(day): the 7 days from \(last.adding(days: -6)) to \(last) have spent \(spent) already"
        )
    }

    /// The last day of the first rolling week holding `day` that has no excuse left, if any.
    func fullWeek(holding day: LocalDay) -> LocalDay? {
        (0..<7).lazy.map { day.adding(days: $0) }.first { left(on: $0) == 0 }
    }

    /// What is left on `day`, for status and the gate.
    public func standing(on day: LocalDay) -> ExcuseStanding {
        ExcuseStanding(perWeek: perWeek, left: left(on: day), backOn: backOn(after: day), today: day)
    }

    /// `excuses.per-week` from the stored settings: the key itself, else its alias
    /// `gate.unlocks-per-week`, else the default.
    public static func perWeek(stored value: String?, alias: String?) -> Int {
        value.flatMap { Int($0) } ?? alias.flatMap { Int($0) } ?? defaultPerWeek
    }
}

/// Excuses left on a day, in the words status and the gate use.
public struct ExcuseStanding: Sendable, Equatable {
    public let perWeek: Int
    public let left: Int
    /// The day the next excuse comes back; nil when none was spent this week, or the budget is 0.
    public let backOn: LocalDay?
    public let today: LocalDay

    public init(perWeek: Int, left: Int, backOn: LocalDay?, today: LocalDay) {
        self.perWeek = perWeek
        self.left = left
        self.backOn = backOn
        self.today = today
    }

    /// "1 excuse left this week", "No excuses left this week; the next comes back on Tuesday".
    public var sentence: String {
        switch left {
        case 0:
            guard let backOn else { return "No excuses left this week (excuses.per-week is 0)" }
            return "No excuses left this week; the next comes back on \(Self.dayWords(backOn, from: today))"
        default: return Self.leftWords(left)
        }
    }

    /// "1 excuse left this week", "3 excuses left this week".
    public static func leftWords(_ left: Int) -> String {
        left == 1 ? "1 excuse left this week" : "\(left) excuses left this week"
    }

    /// "Tuesday" within the coming six days, "Tuesday next week" a week on.
    static func dayWords(_ day: LocalDay, from today: LocalDay) -> String {
        let name = Weekday.names[day.weekday - 1].capitalized
        return today.days(to: day) >= 7 ? "\(name) next week" : name
    }

    /// The refusal of a skip of a required habit (or an unlock) with no excuse left.
    public var refusal: MorningProofError {
        MorningProofError(.refused, code: "no_excuses_left", sentence)
    }
}
