/// Names of the settings MorningProof itself reads; other modules may store their own keys.
public enum SettingKey {
    public static let timeZone = "timezone"
    public static let dayStart = "day-start"
    public static let weekStart = "week-start"
    /// The check-in's question, verse and suggestions (separated by `;`).
    public static let checkinQuestion = "checkin.question"
    public static let checkinVerse = "checkin.verse"
    public static let checkinSuggestions = "checkin.suggestions"
    /// Excuses in any 7 days (gate unlocks, skips of required habits, empty travel days).
    public static let excusesPerWeek = "excuses.per-week"
    /// The older name of `excusesPerWeek`, read and written as an alias of it.
    public static let gateUnlocksPerWeek = "gate.unlocks-per-week"
    public static let quotesFile = "quotes.file"
    /// Comma-separated source names (matched as case-insensitive parts of the source's name):
    /// the first one with data on a day gives that day's cumulative totals.
    public static let metricSourcePriority = "metrics.source-priority"
}
