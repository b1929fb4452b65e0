import Foundation

/// Where the database file lives: `--db`, then `MORNINGPROOF_DB`, then
/// `$XDG_DATA_HOME/morningproof/morningproof.sqlite` (`~/.local/share/...`).
public enum DatabaseLocation {
    /// What `--db` says in every command's help.
    public static let optionHelp =
        "The database file (default: MORNINGPROOF_DB, else $XDG_DATA_HOME/morningproof/morningproof.sqlite)."

    public static func resolve(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        if let explicit, !explicit.isEmpty { return expandTilde(explicit) }
        if let fromEnvironment = environment["MORNINGPROOF_DB"], !fromEnvironment.isEmpty {
            return expandTilde(fromEnvironment)
        }
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return dataHome + "/morningproof/morningproof.sqlite"
    }

    static func expandTilde(_ path: String) -> String {
        path.hasPrefix("~/")
            ? (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst() : path
    }
}
