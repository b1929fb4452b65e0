import Foundation
import GRDB
import MorningProofCore

/// Setting keys of the check-in, the gate and the quotes.
extension SettingKey {
    public static let checkinQuestion = "checkin.question"
    public static let checkinVerse = "checkin.verse"
    /// Suggestions separated by `;`.
    public static let checkinSuggestions = "checkin.suggestions"
    public static let gateUnlocksPerWeek = "gate.unlocks-per-week"
    public static let quotesFile = "quotes.file"
}

/// One `gate unlock`: it opens the gate for the rest of `day`.
public struct GateUnlock: Hashable, Sendable {
    public var day: LocalDay
    public var at: Date
    public var reason: String

    public init(day: LocalDay, at: Date, reason: String) {
        self.day = day
        self.at = at
        self.reason = reason
    }
}

/// What asking for an unlock did.
public enum GateUnlockOutcome: Equatable, Sendable {
    /// Recorded; `remaining` more unlocks are allowed in the 7 days ending on the unlocked day.
    case unlocked(remaining: Int)
    /// The day was already unlocked: nothing was recorded.
    case alreadyUnlocked(GateUnlock)
    /// `limit` unlocks were used in the 7 days ending on the day; the next one is allowed on `nextDay`
    /// (nil when the limit is 0).
    case limitReached(used: [GateUnlock], nextDay: LocalDay?)
}

extension AppDatabase {
    /// How many unlocks are allowed in any 7 days (`gate.unlocks-per-week`, default 1).
    public func gateUnlocksPerWeek() throws -> Int {
        try setting(SettingKey.gateUnlocksPerWeek).flatMap { Int($0) } ?? 1
    }

    /// Unlocks on days `from` through `to`, oldest first.
    public func gateUnlocks(from: LocalDay, through to: LocalDay) throws -> [GateUnlock] {
        try read { db in try Self.unlocks(db, from: from, through: to) }
    }

    /// The unlock of a day, if any.
    public func gateUnlock(on day: LocalDay) throws -> GateUnlock? {
        try gateUnlocks(from: day, through: day).first
    }

    /// Records an unlock for `day` unless the day already has one or `limit` unlocks were used in the
    /// 7 days ending on `day` (a rolling week: `day` and the 6 before it). Check and insert are one transaction.
    public func unlockGate(day: LocalDay, at instant: Date, reason: String, limit: Int) throws -> GateUnlockOutcome {
        try write { db in
            let week = try Self.unlocks(db, from: day.adding(days: -6), through: day)
            if let today = week.first(where: { $0.day == day }) { return .alreadyUnlocked(today) }
            guard week.count < limit else {
                // The oldest unlocks leave the window first: after the (count - limit + 1)-th oldest has left.
                let next = limit > 0 ? week[week.count - limit].day.adding(days: 7) : nil
                return .limitReached(used: week, nextDay: next)
            }
            try db.execute(
                sql: "INSERT INTO gateUnlock (day, at, reason) VALUES (?, ?, ?)",
                arguments: [day.description, instant, reason])
            return .unlocked(remaining: limit - week.count - 1)
        }
    }

    private static func unlocks(_ db: Database, from: LocalDay, through to: LocalDay) throws -> [GateUnlock] {
        try Row.fetchAll(
            db, sql: "SELECT day, at, reason FROM gateUnlock WHERE day >= ? AND day <= ? ORDER BY day",
            arguments: [from.description, to.description]
        ).compactMap { row in
            guard let day = LocalDay(row["day"] as String) else { return nil }
            return GateUnlock(day: day, at: row["at"], reason: row["reason"])
        }
    }
}
