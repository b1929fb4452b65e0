import Foundation
import MorningProofCore
import MorningProofService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the notification hook (`config set notify.hook PATH`) for one event: directly, with no
/// shell and nothing interpolated into a command line; the event as JSON on standard input and in
/// `MORNINGPROOF_*` variables. The hook starts with default signal handling, in a process group of
/// its own, with no descriptor of ours but its input and output, and dies with the process that
/// runs it. Its own exit status decides delivery: what it leaves running is not waited for. A hook
/// still running after `timeout` seconds is killed with its whole process group.
public struct HookRunner: Sendable {
    /// An absolute path to an executable file.
    public var path: String
    public var timeout: TimeInterval
    /// How long output is still read after the hook exits (a child it left may hold the pipe).
    public var outputGrace: TimeInterval = 0.2
    /// How much of the hook's output is kept for the error message.
    public static let keptOutput = 64 * 1024

    public init(path: String, timeout: TimeInterval = 10) {
        self.path = path
        self.timeout = timeout
    }

    /// Why a delivery failed, in words for `notifications list`.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Runs the hook for `event`; throws a `Failure` when it cannot start, exits non-zero, times
    /// out, or is stopped because `stop` was requested (watch shutting down).
    public func deliver(_ event: NotificationEvent, stop: ShutdownRequest? = nil) throws(Failure) {
        if stop?.isRequested == true { throw Failure(description: "not run: shutting down") }
        let environment = ProcessInfo.processInfo.environment.merging(event.environment) { _, new in new }
        var process: HookProcess
        do {
            process = try HookProcess(path: path, environment: environment)
        } catch {
            throw Failure(description: HookStartProblem(path: path, code: error.code).description)
        }
        var tail = OutputTail(limit: Self.keptOutput)
        let ending = process.run(
            input: Array((event.json() + "\n").utf8), timeout: timeout, afterExit: outputGrace, tail: &tail, stop: stop)
        let said = tail.lastLine.isEmpty ? "" : ": \(tail.lastLine)"
        switch ending {
        case .exited(0):
            return
        case .exited(let status):
            throw Failure(description: "hook exited with status \(status)" + said)
        case .signalled(let signal):
            throw Failure(description: "hook was killed by signal \(signal)" + said)
        case .timedOut:
            throw Failure(description: "hook timed out after \(Self.seconds(timeout)) and was killed")
        case .stopped:
            throw Failure(description: "hook was stopped: shutting down")
        }
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// A request, from `watch` shutting down, that the running pass stop: the hook it runs is killed
/// with its process group and no further event is claimed.
public final class ShutdownRequest: Sendable {
    private let requested = Locked(false)

    public init() {}

    /// Asks the pass to stop; safe from any thread.
    public func request() { requested.withLock { $0 = true } }

    public var isRequested: Bool { requested.withLock { $0 } }
}

/// Why a hook did not start, in words a person can act on, from the errno of the failed exec.
struct HookStartProblem: CustomStringConvertible {
    var path: String
    var code: Int32

    var description: String {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        let exists = files.fileExists(atPath: path, isDirectory: &isDirectory)
        switch code {
        case ENOEXEC:
            return "hook \(path) is not a script or program this system can run: add a #! line (such as #!/bin/sh)"
        case ENOENT where !exists:
            return "hook \(path) does not exist (deleted or moved?): set notify.hook again"
        case ENOENT:
            if let interpreter {
                return "hook \(path) cannot run: its interpreter \(interpreter) does not exist"
            }
            return "hook \(path) cannot run: a file it needs to start does not exist"
        case EACCES where isDirectory.boolValue:
            return "hook \(path) is a directory, not a program"
        case EACCES where !files.isExecutableFile(atPath: path):
            return "hook \(path) is not executable (chmod +x it)"
        case EACCES:
            if let interpreter, !files.isExecutableFile(atPath: interpreter) {
                return "hook \(path) cannot run: its interpreter \(interpreter) is not executable"
            }
            return "hook \(path) could not start: permission denied"
        default:
            return "hook \(path) could not start: \(String(cString: strerror(code)))"
        }
    }

    /// The program named on the hook's `#!` line, when it has one.
    var interpreter: String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 256)) ?? Data()
        guard head.starts(with: Array("#!".utf8)) else { return nil }
        let line = String(decoding: head.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
    }
}
