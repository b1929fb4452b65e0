import Foundation
import MorningProofCore
import MorningProofService

/// What a Web Push message carries, the JSON the web app's service worker shows:
/// `{"title", "body", "event", "habit", "day", "url"}`.
public struct PushMessage: Codable, Sendable, Hashable {
    /// The notification's title: "Goal met: Steps", "Reminder: Make bed", "MorningProof test".
    public var title: String
    /// The event's sentence (`NotificationEvent.message`).
    public var body: String
    /// `goal.met`, `habit.reminder` or `notification.test`.
    public var event: String
    /// The habit's name.
    public var habit: String
    /// The day the event is about, `YYYY-MM-DD`.
    public var day: String
    /// Where tapping the notification goes: the web app's Today page.
    public var url: String

    public init(title: String, body: String, event: String, habit: String, day: String, url: String = "/") {
        self.title = title
        self.body = body
        self.event = event
        self.habit = habit
        self.day = day
        self.url = url
    }

    /// The message for an event.
    public init(_ event: NotificationEvent) {
        self.init(
            title: Self.title(of: event), body: event.message, event: event.event.rawValue, habit: event.habit,
            day: event.day)
    }

    /// "Goal met: <habit>", "Reminder: <habit>" or "MorningProof test": the title every channel uses.
    public static func title(of event: NotificationEvent) -> String {
        switch event.event {
        case .goalMet: "Goal met: \(event.habit)"
        case .reminder: "Reminder: \(event.habit)"
        case .test: "MorningProof test"
        }
    }

    /// The JSON bytes, keys sorted.
    public func json() -> Data {
        // Six strings always encode.
        return (try? SortedJSON.encode(self)).map { Data($0) } ?? Data()
    }
}
