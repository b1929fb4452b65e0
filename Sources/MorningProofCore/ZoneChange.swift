import Foundation

/// A recorded change of the zone setting: the instant, and the clocks before and after.
public struct ZoneChange: Equatable, Sendable {
    public var at: Date
    public var from: DayClock
    public var to: DayClock

    public init(at: Date, from: DayClock, to: DayClock) {
        self.at = at
        self.from = from
        self.to = to
    }

    /// The days this change touches: its day in the old zone and in the new one, and any day
    /// between them that the jump passed over (from UTC-12 to UTC+14, or with a later day start),
    /// which was never today anywhere.
    public var travelDays: Set<LocalDay> {
        let old = from.day(at: at), new = to.day(at: at)
        return Set(min(old, new).through(max(old, new)))
    }
}

extension ZoneChange {
    /// The change to record when a clock goes from `old` to `new` at `instant`: nil when nothing
    /// changed, and nil when there was no zone before (the first zone ever set is a choice, not a trip).
    public static func recorded(from old: DayClock?, to new: DayClock, at instant: Date) -> ZoneChange? {
        guard let old, old != new else { return nil }
        return ZoneChange(at: instant, from: old, to: new)
    }
}

extension Sequence<ZoneChange> {
    /// Days on which the zone changed (in the old zone and in the new one); a change of the day
    /// start alone moves no one.
    public var travelDays: Set<LocalDay> {
        filter { $0.from.zoneIdentifier != $0.to.zoneIdentifier }.reduce(into: []) { $0.formUnion($1.travelDays) }
    }
}
