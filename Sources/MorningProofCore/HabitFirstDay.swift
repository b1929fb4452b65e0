/// A new habit's first day, which a person may set in the past (`habit add --since`, `startDay`) so
/// that the weeks before MorningProof can be recorded by hand: nothing before it is recorded or counted.
public enum HabitFirstDay {
    /// The first day of a new habit: `since` (`YYYY-MM-DD`, `yesterday`, `-N`) when given, else
    /// `today`. Refused for a photo habit (its days need photos), in the future, or malformed.
    public static func firstDay(_ since: String?, of habit: Habit, today: LocalDay, clock: DayClock) throws
        -> LocalDay
    {
        guard let since else { return today }
        guard let day = try? LocalDay.resolve(since, today: today) else {
            throw MorningProofError.usage(
                "bad \(field: .startDay, "\"\(since)\""): use YYYY-MM-DD (\(LocalDay.supportedWords)), yesterday or -N (N days ago)"
            )
        }
        try clock.checkHappened(day)
        if day > today {
            throw MorningProofError(
                .refused, code: "future_day",
                "\(field: .startDay, day.description) is in the future (today is \(today))")
        }
        if habit.kind == .photo && day < today {
            throw MorningProofError(
                .refused, code: "proof_required",
                "\(field: .startDay) is for habits recorded by hand: a photo habit starts today, as each of its days is proved by a photo taken that day"
            )
        }
        return day
    }
}
