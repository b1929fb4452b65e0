import Foundation

/// The executables SwiftPM built beside the test bundle (`morningproof`, `morningproof-server`),
/// run the way a person or a script runs them.
public enum BuiltBinary {
    /// The built executable `name`.
    public static func url(_ name: String) -> URL {
        let bundle = Bundle.main.bundleURL
        let candidates = [
            bundle.deletingLastPathComponent().appendingPathComponent(name), bundle.appendingPathComponent(name),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs `name` with `arguments` to its end, with the test's environment less the variables that
    /// would choose a database or a clock for it, plus `environment`.
    @discardableResult
    public static func run(_ name: String, _ arguments: [String], environment extra: [String: String] = [:]) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        try run(executable: url(name), arguments, environment: extra)
    }

    /// Runs the program at `executable` (one of the project's scripts, say) the same way.
    @discardableResult
    public static func run(executable: URL, _ arguments: [String], environment extra: [String: String] = [:]) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for key in ["MORNINGPROOF_DB", "MORNINGPROOF_NOW", "MORNINGPROOF_DATABASE_URL"] { environment[key] = nil }
        environment.merge(extra) { $1 }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self)
        )
    }
}

/// A `morningproof-server` process serving on a free port, as a person starts it; its first line
/// on stdout says where it listens.
public final class ServerProcess {
    public let process = Process()
    /// `http://127.0.0.1:PORT` (`https://` when it serves TLS).
    public let address: String
    /// The line it printed first.
    public let firstLine: String
    /// The file its stderr (its request log) goes to, when kept.
    let log: URL?

    /// Starts `morningproof-server ARGUMENTS` (which must choose `--port 0`) and waits for its first
    /// line. Its log is kept in a temporary file for `logText()` when `keepLog`, or else thrown away.
    /// `environment` adds to the test's (`TMPDIR`, say).
    public init(_ arguments: [String], keepLog: Bool = false, environment: [String: String] = [:]) throws {
        log =
            keepLog
            ? FileManager.default.temporaryDirectory.appendingPathComponent("mp-server-\(UUID().uuidString).log") : nil
        process.executableURL = BuiltBinary.url("morningproof-server")
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        process.standardOutput = out
        if let log {
            FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
        firstLine = String(decoding: printed, as: UTF8.self)
        guard
            let address = firstLine.split(separator: " ").first(where: {
                $0.hasPrefix("http://") || $0.hasPrefix("https://")
            })
        else {
            process.terminate()
            throw TestFailure("morningproof-server did not say where it listens: \(firstLine)")
        }
        self.address = String(address.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// SIGTERM, then its exit status. A server still running 30 s later (a request that never
    /// ends holds its graceful shutdown) is killed, and the status is SIGKILL's 137, so that the
    /// test fails instead of waiting for ever.
    public func stop() -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return 137
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Everything it has written to stderr so far, when kept.
    public func logText() -> String {
        log.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
    }

    deinit {
        if process.isRunning { process.terminate() }
        if let log { try? FileManager.default.removeItem(at: log) }
    }
}

/// A test's own failure, with what went wrong.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
