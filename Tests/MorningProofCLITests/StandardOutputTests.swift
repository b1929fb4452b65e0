import Foundation
import Testing

/// A stdout that cannot take the output (a full disk, a closed pipe): exit 74 with the reason on
/// stderr, or a quiet end by SIGPIPE, never a crash.
@Suite struct StandardOutputTests {
    let now = "2026-03-10T08:00:00Z"

    /// Runs the binary with its stdout on `output` (the write end is handed over and closed here).
    func run(_ cli: CLI, _ arguments: [String], stdout output: FileHandle) throws -> (Process, String) {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments + ["--db", cli.database.path, "--now", now]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["TZ"] = "UTC"
        process.environment = environment
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try output.close()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process, stderr)
    }

    @Test(arguments: [["status"], ["export"], ["report", "--json"], ["habit", "list"], ["--help"]])
    func fullDiskIsAnIOError(arguments: [String]) throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["habit", "add", "Run"], now: now).status == 0)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"), "no /dev/full on this machine")
        let (process, stderr) = try run(cli, arguments, stdout: full)
        #expect(process.terminationReason == .exit, "\(arguments): \(stderr)")
        #expect(process.terminationStatus == 74, "\(arguments): \(stderr)")
        #expect(stderr == "morningproof: could not write to standard output: No space left on device\n")
    }

    @Test func closedPipeEndsQuietlyOrWithTheReason() throws {
        let cli = try CLI()
        defer { cli.remove() }
        for index in 0..<40 { #expect(try cli.run(["habit", "add", "Habit \(index)"], now: now).status == 0) }
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()  // the reader has gone, as `| head -1` does once it has its line
        let (process, stderr) = try run(cli, ["report"], stdout: pipe.fileHandleForWriting)
        if process.terminationReason == .uncaughtSignal {
            // SIGPIPE at its default ends the process quietly, as it ends `cat` in a pipeline.
            #expect(process.terminationStatus == SIGPIPE, "\(stderr)")
            #expect(stderr.isEmpty)
        } else {
            #expect(process.terminationStatus == 74, "\(stderr)")
            #expect(stderr == "morningproof: could not write to standard output: Broken pipe\n")
        }
    }
}
