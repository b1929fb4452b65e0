import Foundation

/// IANA zone names: validation, suggestions, and the machine's default.
public enum ZoneNames {
    /// The known IANA names, sorted: the zones and links of the system's tz database
    /// (`tzdata.zi`) that Foundation can load. Without that file, Foundation's own list plus `UTC`.
    /// (Foundation's list alone lacks `UTC`, `EST5EDT` and even `Asia/Kolkata`, and Foundation
    /// also loads names that are not IANA's, such as `PST` or the offset `GMT+3`.)
    public static var known: [String] { loadable }

    /// True for an IANA name (`Europe/Istanbul`, `UTC`), false for offsets and abbreviations.
    public static func isValid(_ name: String) -> Bool {
        ianaNames.contains(name) && TimeZone(identifier: name) != nil
    }

    /// Why `name` is not a zone to use, with the closest name suggested; nil when it is one.
    /// The one wording of this refusal, for `config set timezone` and the server's profile alike.
    public static func problem(with name: String) -> String? {
        if isValid(name) { return nil }
        if name.isEmpty { return "the time zone is empty; use an IANA name such as Europe/Istanbul" }
        // A long text is close to no zone name; comparing it with each would take a while.
        let closest = name.utf8.count <= 100 ? suggestion(for: name) : nil
        let hint = closest.map { "; did you mean \($0)?" } ?? "; use an IANA name such as Europe/Istanbul"
        return "unknown time zone \"\(name)\"\(hint)"
    }

    /// The tz database still carries `EST`, `MST` and `HST` as zones of a fixed offset, for old
    /// systems; they are abbreviations all the same (New York is on EDT half the year), so refused.
    static let abbreviationZones: Set<String> = ["EST", "MST", "HST"]

    /// Common abbreviations and the zone a person who types them most likely means.
    static let abbreviations: [String: String] = [
        "EST": "America/New_York", "EDT": "America/New_York", "CST": "America/Chicago", "CDT": "America/Chicago",
        "MST": "America/Denver", "MDT": "America/Denver", "PST": "America/Los_Angeles",
        "PDT": "America/Los_Angeles", "HST": "Pacific/Honolulu",
    ]

    /// Every name of the tz database: read once, cheaply (no zone is loaded for it).
    private static let ianaNames: Set<String> = {
        let names = Set(ianaNames(tzdata: SystemZoneData().tzdata()))
        return (names.isEmpty ? Set(TimeZone.knownTimeZoneIdentifiers + ["UTC"]) : names)
            .subtracting(abbreviationZones)
    }()

    /// The names Foundation can load, for suggestions: built only when one is asked for.
    private static let loadable: [String] = ianaNames.filter { TimeZone(identifier: $0) != nil }.sorted()

    /// Zone (`Z name ...`) and link (`L target name`) names of a `tzdata.zi` text.
    static func ianaNames(tzdata: String?) -> [String] {
        tzdata.map { ianaNames(tzdata: Array($0.utf8)) } ?? []
    }

    /// The same over the file's bytes: one pass, fields split only on `Z` and `L` lines (a
    /// fraction of the file), so that checking a name costs little in every process.
    static func ianaNames(tzdata bytes: [UInt8]?) -> [String] {
        guard let bytes else { return [] }
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        let zone = UInt8(ascii: "Z"), link = UInt8(ascii: "L")
        var names: [String] = []
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != newline { lineEnd += 1 }
            let kind = bytes[lineStart]
            if lineEnd - lineStart > 2, kind == zone || kind == link, bytes[lineStart + 1] == space {
                let fields = bytes[lineStart..<lineEnd].split(separator: space)
                let index = kind == zone ? 1 : 2
                if fields.count > index, let name = String(bytes: fields[index], encoding: .utf8) { names.append(name) }
            }
            lineStart = lineEnd + 1
        }
        return names
    }

    /// The closest known name, for "did you mean …?", or nil when none is close.
    public static func suggestion(for name: String) -> String? {
        if let zone = abbreviations[name.uppercased()] { return zone }
        let wanted = name.lowercased().replacingOccurrences(of: " ", with: "_")
        if let exact = known.first(where: { $0.lowercased() == wanted }) { return exact }
        let city = wanted.split(separator: "/").last.map(String.init) ?? wanted
        if let byCity = known.first(where: { $0.lowercased().split(separator: "/").last.map(String.init) == city }) {
            return byCity
        }
        var best: (name: String, distance: Int)?
        for candidate in known {
            let lowered = candidate.lowercased()
            var distance = editDistance(lowered, wanted)
            // A city alone ("Kolkatta") is compared with the city part of each name.
            if !wanted.contains("/"), let last = lowered.split(separator: "/").last, last.count < lowered.count {
                distance = min(distance, editDistance(String(last), wanted))
            }
            if distance <= max(2, wanted.count / 4), distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// The zone of this machine: `TZ`, then `/etc/localtime`, then `/etc/timezone`, then UTC.
    public static func systemDefault(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        systemDefault(from: SystemZoneData(environment: environment))
    }

    /// The same over any source of the machine's settings (tests give their own).
    public static func systemDefault(from data: some ZoneData) -> String {
        if var tz = data.environment["TZ"], !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if let range = tz.range(of: "zoneinfo/") { tz = String(tz[range.upperBound...]) }
            if isValid(tz) { return tz }
        }
        if let target = data.localtimeTarget(), let range = target.range(of: "zoneinfo/") {
            let name = String(target[range.upperBound...])
            if isValid(name) { return name }
        }
        if let text = data.timezoneFile() {
            let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if isValid(name) { return name }
        }
        return "UTC"
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
