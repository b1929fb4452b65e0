import Foundation
import MorningProofCore

/// Writes to stdout and stderr, and encodes JSON for scripts.
///
/// Text never carries a raw control character to the terminal: `out` and `error` show any (other
/// than the newlines that separate lines) as a visible escape such as `\u{1B}`. Stored text that
/// may hold a newline goes through `UserText.visible` where it is interpolated.
enum Console {
    static func out(_ line: String) {
        write(UserText.visible(line, keepingNewlines: true), to: .standardOutput)
    }

    static func error(_ line: String) {
        write(UserText.visible(line, keepingNewlines: true), to: .standardError)
    }

    /// A line with colours from `styled`: every stored text in it must already be `UserText.visible`.
    static func outStyled(_ line: String) {
        write(line, to: .standardOutput)
    }

    /// A line of JSON encoded elsewhere: its strings keep their true text.
    static func outJSON(_ line: String) {
        write(line, to: .standardOutput)
    }

    private static func write(_ line: String, to handle: FileHandle) {
        handle.write(Data((line + "\n").utf8))
    }

    /// Prints a value as JSON with stable, sorted camelCase keys.
    static func json<T: Encodable>(_ value: T) throws {
        // Control characters are escaped; the true string stays (bidi marks included).
        var bytes = try SortedJSON.encode(value)
        bytes.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// True when stdout is a terminal and NO_COLOR is not set.
    static var useColor: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    static func styled(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Width of the terminal on stdout, or `fallback` when it is not one.
    static func terminalWidth(fallback: Int = 100) -> Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return fallback
    }
}
