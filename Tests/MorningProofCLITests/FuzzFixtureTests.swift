import Foundation
import TestFixtures
import Testing

/// Replays every input that `scripts/fuzz` found crashing, hanging or exiting with a code outside the
/// list, kept under Tests/Fixtures/fuzz/FORMAT/: the reader, then the commands that show what it
/// stored, must each end with a listed exit code and no "Fatal error". An input named in
/// Tests/Fixtures/fuzz/KNOWN waits for another change and is replayed as a known issue.
@Suite struct FuzzFixtureTests {
    static let folder = Fixtures.url("fuzz")
    static let allowed: Set<Int32> = [0, 1, 64, 65, 66, 74, 75]
    static let showHabits = [["habit", "list"], ["report"]]
    static let showMetrics = [["metrics", "show"]]

    /// The commands that read an input of `format`, as scripts/fuzz-targets/readers.py runs them.
    static func commands(_ format: String, _ path: String) -> [[String]]? {
        switch format {
        case "metrics-csv", "jsonl", "health-auto-export", "apple-xml", "apple-zip":
            [["metrics", "import", path]] + showMetrics
        case "loop-db", "loop-csv": [["import", "loop", path, "--apply"]] + showHabits
        case "harsh": [["import", "harsh", path, "--apply"]] + showHabits
        case "export-json": [["import", "json", path, "--apply"]] + showHabits
        case "quotes":
            [
                ["config", "set", "quotes.file", path], ["quote", "--at", "2026-03-09T07:00:00Z"],
                ["quote", "history"],
            ]
        default: nil
        }
    }

    /// Every kept input: `format/name`.
    static var inputs: [String] {
        let manager = FileManager.default
        let formats = ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            var isDirectory: ObjCBool = false
            return manager.fileExists(atPath: folder.appendingPathComponent($0).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        return formats.flatMap { format in
            ((try? manager.contentsOfDirectory(atPath: folder.appendingPathComponent(format).path)) ?? [])
                .filter { !$0.hasSuffix(".txt") && !$0.hasPrefix(".") }.map { "\(format)/\($0)" }
        }.sorted()
    }

    /// `format/name` of the inputs that wait for another change, from the KNOWN file (`# ...` comments).
    static var known: Set<String> {
        let text = (try? String(contentsOf: folder.appendingPathComponent("KNOWN"), encoding: .utf8)) ?? ""
        return Set(
            text.split(separator: "\n").compactMap { line in
                line.hasPrefix("#") ? nil : line.split(separator: " ").first.map(String.init)
            })
    }

    @Test func everyFormatOfTheKeptInputsIsKnown() {
        for input in Self.inputs {
            let format = String(input.split(separator: "/")[0])
            #expect(Self.commands(format, "x") != nil, "Tests/Fixtures/fuzz/\(format): not a format scripts/fuzz knows")
        }
    }

    @Test(arguments: inputs) func aKeptInputNoLongerCrashes(_ input: String) throws {
        let cli = try CLI()
        defer { cli.remove() }
        let format = String(input.split(separator: "/")[0])
        let path = Self.folder.appendingPathComponent(input).path
        try cli.run(["habit", "add", "Walk", "--metric", "steps", "--at-least", "8000"], now: "2026-03-09T12:00:00Z")
        let replay = {
            for (number, arguments) in (Self.commands(format, path) ?? []).enumerated() {
                let result = try cli.run(arguments, now: "2026-03-09T12:00:00Z")
                #expect(
                    Self.allowed.contains(result.status) && !result.stderr.contains("Fatal error"),
                    "morningproof \(arguments.joined(separator: " ")): exit \(result.status): \(result.stderr.suffix(500))"
                )
                if number == 0 && result.status != 0 { break }
            }
        }
        if Self.known.contains(input) {
            withKnownIssue("waits for its fix (Tests/Fixtures/fuzz/KNOWN)", isIntermittent: true) { try replay() }
        } else {
            try replay()
        }
    }
}
