import Foundation

/// What tests ask about processes they started or that a hook left behind.
public enum LiveProcess {
    /// True while `pid` names a live process (not a zombie waiting to be reaped: a process
    /// orphaned in a container may stay one).
    public static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).prefix(1)
        return state != "Z" && state != "X"
    }

    /// Polls `condition` until it holds or `seconds` pass (a deadline against hanging, not a timing check).
    public static func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }
}
