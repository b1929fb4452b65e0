import Foundation

/// Last writer wins on a day of a habit: a person's action (done, skip, undo, the check-in answer)
/// sent with the instant it happened, as a phone replays what it recorded offline. Pure: the stores
/// apply it inside their writing transaction.
///
/// An action that happened before the day's latest change loses: before its entry was recorded, its
/// check-in answered, or a person last acted on it (`lastChange`, which an undo leaves behind so that
/// an older `done` arriving after it cannot bring the day back). The same instant does not lose, so
/// that a retry of the same action is harmless.
public enum LastWriter {
    /// How far ahead of the server's clock an action's instant may be (a phone's clock running fast).
    public static let allowedSkew: TimeInterval = 5 * 60

    /// Whether an action that happened at `instant` loses to what the day holds: its `entry` (when a
    /// person made it: an entry a goal or an import recorded loses to a person's action whenever it
    /// happened, as a manual entry always wins), its check-in answer's instant, and the instant of
    /// the last action a person took on it.
    public static func loses(_ instant: Date, entry: Entry?, answeredAt: Date?, lastChange: Date?) -> Bool {
        let byPerson = entry.flatMap { $0.source == .metric || $0.source == .import ? nil : $0.recordedAt }
        guard let latest = [byPerson, answeredAt, lastChange].compactMap({ $0 }).max() else { return false }
        return instant < latest
    }

    /// Whether `instant` lies further ahead of `now` than `allowedSkew`: an action that has not happened.
    public static func isFuture(_ instant: Date, now: Date) -> Bool {
        instant.timeIntervalSince(now) > allowedSkew
    }

    /// The instant an action sent with `at` counts as happening: `at`, held at `now` when a fast clock
    /// put it a little ahead (within `allowedSkew`), so that it never names a day that has not begun.
    /// Without `at`, `now`: the action happened as it arrived.
    public static func instant(of at: Date?, now: Date) -> Date {
        guard let at else { return now }
        return min(at, now)
    }
}
