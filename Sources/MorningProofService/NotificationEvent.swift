import Foundation
import MorningProofCore

/// Something worth telling a person, at most once per day: a goal met, a reminder.
/// Delivered as one line on stdout and as JSON on a hook's standard input.
public struct NotificationEvent: Codable, Sendable, Hashable {
    /// The kinds of event, as hooks see them in `MORNINGPROOF_EVENT`.
    public enum Kind: String, Codable, Sendable {
        case goalMet = "goal.met"
        case reminder = "habit.reminder"
        /// `POST /api/notifications/test`: a message that checks the channels, claimed by nothing.
        case test = "notification.test"
    }

    public var event: Kind
    public var habit: String
    /// The day the event is about (`YYYY-MM-DD`).
    public var day: String
    public var metric: String?
    /// The metric's value that day, in its base unit (steps, minutes, kcal, km, count).
    public var value: Double?
    /// The goal's target in the same unit.
    public var target: Double?
    public var comparison: String?
    /// One sentence for a person.
    public var message: String
    /// The instant the pass decided, ISO 8601 in the user's zone.
    public var at: String

    public init(
        event: Kind, habit: String, day: LocalDay, goal: MetricGoal? = nil, value: Double? = nil, message: String,
        at: String
    ) {
        self.event = event
        self.habit = habit
        self.day = day.description
        self.metric = goal?.metric
        self.value = value
        self.target = goal?.target
        self.comparison = goal?.comparison.rawValue
        self.message = message
        self.at = at
    }

    /// `now` in ISO 8601 in the clock's zone, as events carry it (`at`).
    public static func timestamp(_ now: Date, in clock: DayClock) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = clock.timeZone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: now)
    }

    /// The event as one line of JSON with sorted keys.
    public func json() -> String {
        (try? SortedJSON.string(self)) ?? "{}"
    }

    /// Reads an event back from its stored JSON.
    public static func decode(_ json: String) -> NotificationEvent? {
        try? JSONDecoder().decode(NotificationEvent.self, from: Data(json.utf8))
    }

    /// The variables a hook gets: `MORNINGPROOF_EVENT`, `_HABIT`, `_DAY`, `_VALUE`, `_TARGET`, `_MESSAGE`.
    public var environment: [String: String] {
        [
            "MORNINGPROOF_EVENT": event.rawValue,
            "MORNINGPROOF_HABIT": habit,
            "MORNINGPROOF_DAY": day,
            "MORNINGPROOF_VALUE": value.map(Self.plain) ?? "",
            "MORNINGPROOF_TARGET": target.map(Self.plain) ?? "",
            "MORNINGPROOF_MESSAGE": message,
        ]
    }

    /// The line `check` and `watch` print for a person.
    public var line: String { "\(event.rawValue) \(day) \(message)" }

    /// `8412`, `431.5`: a number as a shell script can compare it.
    public static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The stored key of this event: one per kind and habit, claimed once per day.
    public static func key(_ kind: Kind, habitID: Int64) -> String { "\(kind.rawValue)/habit-\(habitID)" }

    /// The kind and habit of a stored key (`key(_:habitID:)`); nil for a key no release writes.
    public static func parse(key: String) -> (kind: Kind, habitID: Int64)? {
        let parts = key.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let kind = Kind(rawValue: String(parts[0])), parts[1].hasPrefix("habit-"),
            let id = Int64(parts[1].dropFirst("habit-".count))
        else { return nil }
        return (kind, id)
    }
}
