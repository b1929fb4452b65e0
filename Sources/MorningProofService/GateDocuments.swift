import Foundation
import MorningProofCore

/// The shield's sites, cutoff and days: `GET/PUT /api/gate/settings` and `gate sites --json`;
/// a cutoff that is not set is null.
public struct GateSettingsJSON: Encodable, Sendable {
    public let sites: [String]
    public let cutoff: String?
    public let days: [String]

    public init(_ settings: GateSettings) {
        sites = settings.sites
        cutoff = settings.cutoffText
        days = settings.dayNames
    }

    public func encode(to encoder: Encoder) throws {
        enum Keys: String, CodingKey { case sites, cutoff, days }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(sites, forKey: .sites)
        try container.encode(cutoff, forKey: .cutoff)
        try container.encode(days, forKey: .days)
    }
}

/// `GET /api/gate`: the gate's answer for the signed-in account, the same rule as the CLI's `gate`.
public struct GateJSON: Codable, Sendable {
    public struct Pending: Codable, Sendable {
        public let id: Int64
        public let name: String
        public let kind: String
    }

    public struct Quote: Codable, Sendable {
        public let id: QuoteID
        public let text: String
        public let author: String
        public let book: String
    }

    public let open: Bool
    public let reason: String
    public let pending: [Pending]
    public let checkin: String
    public let excusesLeft: Int
    public let excuseBackOn: String?
    public let quote: Quote
    public let day: String
    public let nextChange: String?

    /// The excuses left in words ("1 excuse left this week", "No excuses left this week; the next
    /// comes back on Tuesday"), as the local gate says them.
    public var excuseSentence: String {
        let backOn = excuseBackOn.flatMap { LocalDay($0) }
        guard let today = LocalDay(day) ?? backOn else { return ExcuseStanding.leftWords(excusesLeft) }
        return ExcuseStanding(perWeek: excusesLeft, left: excusesLeft, backOn: backOn, today: today).sentence
    }

    public init(_ gate: GateState, zone: TimeZone) {
        open = gate.decision.isOpen
        reason = gate.decision.reason.rawValue
        pending = gate.decision.pendingHabits.map { Pending(id: $0.id, name: $0.name, kind: $0.kind.rawValue) }
        checkin = gate.decision.checkin.rawValue
        excusesLeft = gate.excuses.left
        excuseBackOn = gate.excuses.backOn?.description
        let quote = QuoteJSON(gate.quote, book: gate.book)
        self.quote = Quote(id: quote.id, text: quote.text, author: quote.author, book: quote.bookTitle)
        day = gate.day.description
        nextChange = gate.nextChange.map { ISOInstant.format($0, in: zone) }
    }

    /// `?format=text`: `open`, or `closed: ` and what is left (`closed: Make bed, Read`), one line
    /// for a phone automation to test.
    public var line: String {
        guard !open else { return "open" }
        var left = pending.map { UserText.visible($0.name).replacingOccurrences(of: "\n", with: " ") }
        if checkin == CheckinState.unanswered.rawValue || checkin == CheckinState.no.rawValue {
            left.append("check-in")
        }
        return "closed: " + left.joined(separator: ", ")
    }

    enum CodingKeys: String, CodingKey {
        case open, reason, pending, checkin, excusesLeft, excuseBackOn, quote, day, nextChange
    }

    /// Every field, the ones without a value as null: a client reads the same keys every time.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(open, forKey: .open)
        try container.encode(reason, forKey: .reason)
        try container.encode(pending, forKey: .pending)
        try container.encode(checkin, forKey: .checkin)
        try container.encode(excusesLeft, forKey: .excusesLeft)
        try container.encode(excuseBackOn, forKey: .excuseBackOn)
        try container.encode(quote, forKey: .quote)
        try container.encode(day, forKey: .day)
        try container.encode(nextChange, forKey: .nextChange)
    }
}
