import Foundation
import MorningProofCore

/// Runs the notification hook (`config set notify.hook PATH`) for one event: directly, with no
/// shell and nothing interpolated into a command line; the event as JSON on standard input and in
/// `MORNINGPROOF_*` variables. A hook still running after `timeout` seconds is killed with its
/// whole process group.
public struct HookRunner: Sendable {
    /// An absolute path to an executable file.
    public var path: String
    public var timeout: TimeInterval

    public init(path: String, timeout: TimeInterval = 10) {
        self.path = path
        self.timeout = timeout
    }

    /// Why a delivery failed, in words for `notifications list`.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Runs the hook for `event`; throws a `Failure` when it cannot start, exits non-zero, or times out.
    public func deliver(_ event: NotificationEvent) throws(Failure) {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure(description: "hook \(path) is not an executable file")
        }
        signal(SIGPIPE, SIG_IGN)  // a hook that exits without reading its input must not take us down
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = []
        process.environment = ProcessInfo.processInfo.environment.merging(event.environment) { _, new in new }
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            throw Failure(description: "hook \(path) could not start: \(error.localizedDescription)")
        }
        let tail = OutputTail(output.fileHandleForReading)
        try? input.fileHandleForWriting.write(contentsOf: Data((event.json() + "\n").utf8))
        try? input.fileHandleForWriting.close()

        let group = process.processIdentifier  // Foundation starts the hook as its own process group
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(-group, SIGTERM)
            if exited.wait(timeout: .now() + 0.5) == .timedOut {
                kill(-group, SIGKILL)
                exited.wait()
            }
            kill(-group, SIGKILL)  // anything the hook left behind in its group
            throw Failure(description: "hook timed out after \(Self.seconds(timeout)) and was killed")
        }
        let said = tail.text(waitingUpTo: 0.5)
        switch (process.terminationReason, process.terminationStatus) {
        case (.exit, 0):
            return
        case (.exit, let status):
            throw Failure(description: "hook exited with status \(status)" + (said.isEmpty ? "" : ": \(said)"))
        case (_, let signal):
            throw Failure(description: "hook was killed by signal \(signal)" + (said.isEmpty ? "" : ": \(said)"))
        }
    }

    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// Reads a hook's output in the background, keeping its last line for the error message.
private final class OutputTail: Sendable {
    /// The last few kilobytes read.
    private let data = Locked(Data())
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while let chunk = try? handle.read(upToCount: 4096), !chunk.isEmpty {
                data.withLock { data in
                    data.append(chunk)
                    if data.count > 4096 { data = data.suffix(2048) }
                }
            }
            done.signal()
        }
    }

    /// The last non-empty line written so far (at most 300 characters), waiting briefly for the end.
    func text(waitingUpTo seconds: TimeInterval) -> String {
        _ = done.wait(timeout: .now() + seconds)
        let text = data.withLock { String(decoding: $0, as: UTF8.self) }
        let last = text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        return String(last.trimmingCharacters(in: .whitespaces).prefix(300))
    }
}
