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

    /// The days this change touches: its day in the old zone and in the new one.
    public var travelDays: Set<LocalDay> { [from.day(at: at), to.day(at: at)] }
}
