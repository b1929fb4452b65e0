import Foundation
import MorningProofCore
import MorningProofStoreContract

/// The settings of notification delivery.
public enum NotifySettings {
    /// `notify.hook`: the executable run for each event (empty: stdout only).
    public static let hook = "notify.hook"
    /// `notify.hook-timeout`: how long a hook may run before it is killed (`10s`, `1m`).
    public static let hookTimeout = "notify.hook-timeout"
    public static let defaultTimeout: TimeInterval = 10

    /// The hook configured in `database`, or nil when none is.
    public static func hookRunner(in database: any SettingsStore) async throws -> HookRunner? {
        let settings = try await database.settings()
        guard let path = settings[hook], !path.isEmpty else { return nil }
        let timeout = settings[hookTimeout].flatMap(IntervalText.seconds) ?? defaultTimeout
        return HookRunner(path: path, timeout: timeout)
    }

    /// Checks a `notify.hook` value: an executable file, stored as an absolute path (cron runs
    /// elsewhere); empty or `none` turns the hook off.
    public static func checkHook(_ value: String) throws -> String {
        if value.isEmpty || value.lowercased() == "none" { return "" }
        var path = value
        if path.hasPrefix("~/") { path = NSHomeDirectory() + path.dropFirst() }
        if !path.hasPrefix("/") { path = FileManager.default.currentDirectoryPath + "/" + path }
        path = URL(fileURLWithPath: path).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw MorningProofError.usage("notify.hook: no file at \(path)")
        }
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw MorningProofError.usage("notify.hook: \(path) is not executable (chmod +x it)")
        }
        // What exec would refuse at the first event: no #! line (and not a program), or a #! line
        // naming an interpreter that is not there.
        let head = FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 4) } ?? Data()
        guard head.starts(with: Array("#!".utf8)) || head.starts(with: [0x7f] + Array("ELF".utf8)) else {
            throw MorningProofError.usage("notify.hook: \(HookStartProblem(path: path, code: ENOEXEC))")
        }
        let missing = HookStartProblem(path: path, code: ENOENT)
        if let interpreter = missing.interpreter, !FileManager.default.fileExists(atPath: interpreter) {
            throw MorningProofError.usage("notify.hook: \(missing)")
        }
        return path
    }

    /// Checks a `notify.hook-timeout` value such as `10s`, `30s` or `2m` (at most 10 minutes).
    public static func checkTimeout(_ value: String) throws -> String {
        guard let seconds = IntervalText.seconds(value), seconds <= 600 else {
            throw MorningProofError.usage("bad notify.hook-timeout \"\(value)\": use a duration such as 10s, 30s or 2m")
        }
        return value.trimmingCharacters(in: .whitespaces)
    }
}
