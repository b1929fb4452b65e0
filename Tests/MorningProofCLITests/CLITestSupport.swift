import Foundation
import MorningProofTestSupport

/// Runs the built `morningproof` binary the way a script would, with a temporary database.
struct CLI {
    let directory: URL
    var database: URL { directory.appendingPathComponent("test.sqlite") }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "morningproof-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The binary SwiftPM built next to the test bundle.
    static var binary: URL { BuiltBinary.url("morningproof") }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `morningproof ARGS --db <temp>` at `now` (ISO 8601), with optional standard input.
    /// With `passDatabase: false` the database is left to the environment (MORNINGPROOF_DB, XDG_DATA_HOME).
    /// A `launcher` (a program and its arguments) runs the binary through it (`setpriv ...`).
    @discardableResult
    func run(
        _ arguments: [String], now: String? = nil, environment: [String: String] = [:], input: String? = nil,
        passDatabase: Bool = true, launcher: [String] = []
    ) throws -> Result {
        let process = Process()
        process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? Self.binary
        process.arguments =
            (launcher.isEmpty ? [] : launcher.dropFirst() + [Self.binary.path])
            + arguments + (passDatabase ? ["--db", database.path] : []) + (now.map { ["--now", $0] } ?? [])
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        env["TZ"] = "UTC"
        env.removeValue(forKey: "MORNINGPROOF_NOW")
        env.removeValue(forKey: "MORNINGPROOF_DB")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// Parses a command's JSON output.
    func json(_ arguments: [String], now: String? = nil) throws -> Any {
        let result = try run(arguments + ["--json"], now: now)
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
