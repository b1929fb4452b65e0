import Foundation
import MorningProofCore

/// Writes to stdout and stderr, and encodes JSON for scripts.
///
/// Text never carries a raw control character to the terminal: `out` and `error` show any (other
/// than the newlines that separate lines) as a visible escape such as `\u{1B}`. Stored text that
/// may hold a newline goes through `UserText.visible` where it is interpolated.
///
/// A write to stdout that fails (a full disk, `>/dev/full`, a closed pipe while SIGPIPE is ignored)
/// never stops the command half-way: later output is dropped, and `checkOutput()` turns the first
/// failure into an I/O error (exit 74) once the command has run. A closed pipe with SIGPIPE at its
/// default (`report | head -1`) ends the process quietly by that signal, as it does `cat` or `grep`.
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

    /// Bytes already encoded (`export` to stdout), as they are.
    static func outData(_ data: Data) {
        write(Array(data), to: STDOUT_FILENO)
    }

    /// Text for stderr as it is, without a newline (a progress bar's escapes).
    static func errorText(_ text: String) {
        write(Array(text.utf8), to: STDERR_FILENO)
    }

    /// A question on stdout, left open for the answer on the same line.
    static func prompt(_ text: String) {
        write(Array(UserText.visible(text, keepingNewlines: true).utf8), to: STDOUT_FILENO)
    }

    private static func write(_ line: String, to handle: FileHandle) {
        write(Array((line + "\n").utf8), to: handle.fileDescriptor)
    }

    /// Why the first failed write to stdout failed (`No space left on device`); nil while all went out.
    private static let stdoutFailure = Locked<String?>(nil)

    /// Writes every byte, or records why not: after a failure on stdout nothing more is written there.
    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        if descriptor == STDOUT_FILENO, stdoutFailure.withLock({ $0 != nil }) { return }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                if descriptor == STDOUT_FILENO {
                    let reason = String(cString: strerror(code))
                    stdoutFailure.withLock { $0 = $0 ?? reason }
                }
                return
            }
            offset += written
        }
    }

    /// Throws an I/O error (exit 74) when some output to stdout could not be written.
    static func checkOutput() throws {
        if let reason = stdoutFailure.withLock({ $0 }) {
            throw MorningProofError.ioError("could not write to standard output: \(reason)")
        }
    }

    /// Prints a value as JSON with stable, sorted camelCase keys.
    static func json<T: Encodable>(_ value: T) throws {
        // Control characters are escaped; the true string stays (bidi marks included).
        var bytes = try SortedJSON.encode(value)
        bytes.append(UInt8(ascii: "\n"))
        write(bytes, to: STDOUT_FILENO)
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
