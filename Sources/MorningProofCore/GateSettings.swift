import Foundation

/// Why a gate whose routine is not done is open all the same: the account's shield settings lift it.
public enum GateLift: String, Sendable, Equatable {
    /// Past the cutoff: the shield lifts at that hour whatever is left.
    case cutoff
    /// Today is not one of the days the shield applies.
    case off
}

/// The shield of one account: the sites that wait for the morning, the hour after which the gate
/// opens anyway (the cutoff) and the weekdays it applies. Pure: stored as three settings
/// (`gate.sites`, `gate.cutoff`, `gate.days`), read leniently, checked strictly when set.
public struct GateSettings: Sendable, Equatable {
    /// Host patterns such as `instagram.com` or `*.reddit.com`, lower-case, each once.
    public var sites: [String]
    /// Minutes after local midnight at which the gate opens anyway; nil: no cutoff.
    public var cutoff: Int?
    /// ISO weekdays (1 Monday ... 7 Sunday) of the days the shield applies, by the day they count for.
    public var days: Set<Int>

    public static let sitesKey = "gate.sites"
    public static let cutoffKey = "gate.cutoff"
    public static let daysKey = "gate.days"
    /// Sites on one account's list at most.
    public static let siteLimit = 100
    static let hostMaxLength = 253

    public init(sites: [String] = [], cutoff: Int? = nil, days: Set<Int> = Set(1...7)) {
        self.sites = sites
        self.cutoff = cutoff
        self.days = days
    }

    /// The settings as stored: a value that does not read (edited by hand) counts as unset.
    public init(stored: [String: String]) {
        self.init()
        sites = (stored[Self.sitesKey] ?? "").split(separator: ",").map(String.init).filter { !$0.isEmpty }
        cutoff = stored[Self.cutoffKey].flatMap { parseClockTime($0) }
        if let text = stored[Self.daysKey], let days = try? Self.days(text.split(separator: ",").map(String.init)) {
            self.days = days
        }
    }

    /// The three settings' stored values; nil removes a setting (no cutoff, every day, no site).
    public var storedValues: [String: String?] {
        [
            Self.sitesKey: sites.isEmpty ? nil : sites.joined(separator: ","),
            Self.cutoffKey: cutoff.map(formatClockTime),
            Self.daysKey: days == Set(1...7) ? nil : dayNames.joined(separator: ","),
        ]
    }

    /// The days as lower-case weekday names, Monday first.
    public var dayNames: [String] { days.sorted().map { Weekday.names[$0 - 1] } }

    /// The cutoff as `HH:MM`, nil for none.
    public var cutoffText: String? { cutoff.map(formatClockTime) }

    /// What lifts the gate on `day` at `now`, if anything: a day off, then a cutoff that has passed.
    public func lift(on day: LocalDay, at now: Date, clock: DayClock) -> GateLift? {
        if !days.contains(day.weekday) { return .off }
        if let instant = cutoffInstant(on: day, clock: clock), now >= instant { return .cutoff }
        return nil
    }

    /// The instant the cutoff falls on for `day`: the wall time on the day's date, or on the next
    /// date when it comes before the day start (a 02:00 cutoff with a 04:00 day start).
    public func cutoffInstant(on day: LocalDay, clock: DayClock) -> Date? {
        guard let cutoff else { return nil }
        let date = cutoff < clock.dayStart ? day.adding(days: 1) : day
        return clock.instant(on: date, secondsAfterMidnight: cutoff * 60)
    }

    /// A host pattern as stored: `instagram.com`, `*.reddit.com`, lower-case; usage error otherwise.
    public static func site(_ text: String) throws -> String {
        let host = text.lowercased()
        let bare = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
        let labels = bare.split(separator: ".", omittingEmptySubsequences: false)
        let valid =
            !bare.isEmpty && host.utf8.count <= hostMaxLength
            && labels.allSatisfy { label in
                (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                    && label.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
            }
        guard valid else {
            throw MorningProofError.usage(
                "\"\(text)\" is not a host pattern: give a host such as instagram.com, or *.reddit.com for its subdomains"
            )
        }
        // This machine and bare addresses are not sites: shielding them blocks the computer's own
        // services (the gate's server among them, which would keep the gate closed for good).
        let local = labels.last == "localhost" || labels.last.map { $0.allSatisfy(\.isNumber) } == true
        guard !local else {
            throw MorningProofError.usage(
                "\"\(text)\" is this computer or an address, not a site: give a site's name such as instagram.com")
        }
        return host
    }

    /// A list of host patterns, checked, each once, in the order given (at most `siteLimit`).
    public static func sites(_ texts: [String]) throws -> [String] {
        var sites: [String] = []
        for text in texts {
            let site = try site(text)
            if !sites.contains(site) { sites.append(site) }
        }
        guard sites.count <= siteLimit else {
            throw MorningProofError.usage("at most \(siteLimit) sites can be shielded, not \(sites.count)")
        }
        return sites
    }

    /// A cutoff as `HH:MM`, 00:00 to 23:59: two digits each.
    public static func cutoff(_ text: String) throws -> Int {
        guard text.utf8.count == 5, text.utf8.allSatisfy({ $0 == UInt8(ascii: ":") || (48...57).contains($0) }),
            let minutes = parseClockTime(text)
        else {
            throw MorningProofError.usage("bad gate cutoff \"\(text)\": use HH:MM from 00:00 to 23:59")
        }
        return minutes
    }

    /// Weekday names (full or their first three letters), at least one.
    public static func days(_ names: [String]) throws -> Set<Int> {
        var days = Set<Int>()
        for name in names {
            guard let day = Weekday.number(of: name) else {
                throw MorningProofError.usage("bad gate day \"\(name)\": use weekday names such as monday or sat")
            }
            days.insert(day)
        }
        guard !days.isEmpty else {
            throw MorningProofError.usage(
                "the gate needs at least one day: name the weekdays it applies, such as monday")
        }
        return days
    }

    /// `config set gate.cutoff HH:MM`, or `none` (or nothing) for no cutoff: the value as stored.
    public static func checkCutoffSetting(_ value: String) throws -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.lowercased() == "none" { return "" }
        return formatClockTime(try cutoff(trimmed))
    }

    /// `config set gate.days "monday,tuesday"`: the value as stored, Monday first.
    public static func checkDaysSetting(_ value: String) throws -> String {
        try days(value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)).sorted()
            .map { Weekday.names[$0 - 1] }.joined(separator: ",")
    }
}
