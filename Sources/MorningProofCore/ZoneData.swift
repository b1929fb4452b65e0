import Foundation

/// What Core reads of the machine to know its time zones: the tz database's list of names and
/// the machine's own zone setting. The one place where Core touches files (docs/architecture.md: Core is
/// pure but for time-zone data), behind a protocol so that a test can give its own.
public protocol ZoneData: Sendable {
    /// The process environment (`TZ`, `TZDIR`).
    var environment: [String: String] { get }
    /// The bytes of the compiled tz source, `tzdata.zi`; nil when the machine has none.
    func tzdata() -> [UInt8]?
    /// Where `/etc/localtime` points (`/usr/share/zoneinfo/Europe/Istanbul`); nil when it is not a link.
    func localtimeTarget() -> String?
    /// The text of `/etc/timezone` (Debian's name of the zone); nil when absent.
    func timezoneFile() -> String?
}

/// The machine's own files, as Debian's tzdata (and zic installs) lay them out.
public struct SystemZoneData: ZoneData {
    public let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    public func tzdata() -> [UInt8]? {
        let folders = [environment["TZDIR"], "/usr/share/zoneinfo", "/usr/share/lib/zoneinfo"]
        for folder in folders.compactMap({ $0 }) {
            if let data = FileManager.default.contents(atPath: folder + "/tzdata.zi") { return [UInt8](data) }
        }
        return nil
    }

    public func localtimeTarget() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")
    }

    public func timezoneFile() -> String? {
        try? String(contentsOfFile: "/etc/timezone", encoding: .utf8)
    }
}
