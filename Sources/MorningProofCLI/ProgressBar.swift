import Foundation
import MorningProofCore

/// A one-line progress bar on stderr, for long reads; only when stderr is a terminal.
final class ProgressBar: Sendable {
    /// Whether a bar is on the screen now.
    private let shown = Locked(false)

    /// A bar when stderr is a terminal, else nil (no output for scripts and logs).
    static func forStandardError() -> ProgressBar? {
        isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
    }

    /// Draws `done` of `total` bytes for `path`; files under 32 MB finish too fast to need it.
    func show(_ path: String, _ done: Int64, _ total: Int64) {
        guard total >= 32 << 20 else { return }
        let fraction = min(1, Double(done) / Double(max(total, 1)))
        let width = 30
        let filled = Int(fraction * Double(width))
        let name = (path as NSString).lastPathComponent
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line = "\r\(name) [\(bar)] \(Int(fraction * 100))% \(done >> 20)/\(total >> 20) MB"
        shown.withLock { shown in
            Console.errorText(line)
            shown = true
        }
    }

    /// Removes the bar before other output.
    func clear() {
        shown.withLock { shown in
            guard shown else { return }
            Console.errorText("\r\u{1B}[K")
            shown = false
        }
    }

    /// 1234567 as "1,234,567".
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var result = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { result.append(",") }
            result.append(c)
        }
        return (n < 0 ? "-" : "") + result
    }
}
