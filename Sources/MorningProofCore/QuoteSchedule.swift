import Foundation

/// Which quote shows at a moment: deterministic and stateless, so every process agrees.
///
/// The local wall-clock day is cut into 5-minute windows (window = minutes since local midnight / 5,
/// 0 to 287). The quote of a window is `(window + dayOfYear * step) mod count`, where `step` is 37
/// when 37 is coprime with `count`, else the next integer above 37 that is. During the first 30
/// seconds of a window the previous window's quote still shows; at window 0 that is the last
/// window (287, 23:55) of the previous calendar day, with that day's day of year.
/// Windows follow local wall time: on a DST day some windows never happen or happen twice.
public struct QuoteSchedule: Sendable, Equatable {
    /// Seconds in one window.
    public static let windowSeconds = 300
    /// Windows in a wall-clock day.
    public static let windowsPerDay = 288
    /// Seconds at the start of a window during which the previous window's quote still shows.
    public static let graceSeconds = 30
    /// The preferred step between days.
    public static let preferredStep = 37

    /// How many active quotes there are (at least 1).
    public let count: Int
    /// The step between one day and the next, coprime with `count`.
    public let step: Int

    /// Nil when there are no active quotes.
    public init?(activeCount: Int) {
        guard activeCount > 0 else { return nil }
        count = activeCount
        step = Self.step(for: activeCount)
    }

    /// 37 if coprime with `count`, else the next integer above 37 that is.
    public static func step(for count: Int) -> Int {
        var step = preferredStep
        while gcd(step, count) != 1 { step += 1 }
        return step
    }

    /// The index of the quote of `window` on a day with `dayOfYear` (1 for 1 January).
    public func index(window: Int, dayOfYear: Int) -> Int {
        (window + dayOfYear * step) % count
    }

    /// One window of one wall-clock date and the quote it shows.
    public struct Slot: Sendable, Equatable {
        /// The local calendar date of the window.
        public let date: LocalDay
        /// 0 (00:00) to 287 (23:55).
        public let window: Int
        /// Index into the active quotes.
        public let index: Int

        /// The window's wall-clock start, `HH:MM`.
        public var startsAt: String { formatClockTime(window * 5) }
    }

    /// The slot of `window` on `date`.
    public func slot(date: LocalDay, window: Int) -> Slot {
        Slot(date: date, window: window, index: index(window: window, dayOfYear: date.dayOfYear))
    }

    /// What shows at `instant`: the current window, or the previous one during the grace period.
    public func moment(at instant: Date, clock: DayClock) -> Moment {
        let wall = clock.wallClock(at: instant)
        let window = wall.seconds / Self.windowSeconds
        let current = slot(date: wall.date, window: window)
        guard wall.seconds % Self.windowSeconds < Self.graceSeconds else {
            return Moment(current: current, shown: current)
        }
        let previous =
            window == 0
            ? slot(date: wall.date.adding(days: -1), window: Self.windowsPerDay - 1)
            : slot(date: wall.date, window: window - 1)
        return Moment(current: current, shown: previous)
    }

    /// A moment's window and the slot whose quote shows.
    public struct Moment: Sendable, Equatable {
        /// The window the wall clock is in.
        public let current: Slot
        /// The slot whose quote shows: `current`, or the previous window's during the grace period.
        public let shown: Slot
        /// True during the first 30 seconds of a window.
        public var inGrace: Bool { current != shown }
    }

    /// Every window of `date` that the wall clock shows, from 00:00 up to and including the one at
    /// `until` (all of them when `until` is on a later date). Windows skipped by a DST jump are left out;
    /// windows repeated by one appear once.
    public func history(of date: LocalDay, until: Date? = nil, clock: DayClock) -> [Slot] {
        var last = Self.windowsPerDay - 1
        if let until {
            let wall = clock.wallClock(at: until)
            if wall.date < date { return [] }
            if wall.date == date { last = wall.seconds / Self.windowSeconds }
        }
        return (0...last).compactMap { window in
            let seconds = window * Self.windowSeconds
            // A window exists when some second of it is shown by the wall clock.
            let start = clock.instant(on: date, secondsAfterMidnight: seconds)
            let shown = clock.wallClock(at: start)
            guard shown.date == date, shown.seconds / Self.windowSeconds == window else { return nil }
            return slot(date: date, window: window)
        }
    }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (abs(a), abs(b))
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
