import Foundation

/// ISO 8601 instants as every front end prints them.
public enum ISOInstant {
    /// `2026-03-08T07:30:00-05:00` (or `...Z` in UTC): the instant's wall time in `zone`, with its offset.
    public static func format(_ date: Date, in zone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
