import Foundation
import TestFixtures
import Testing

/// docs/architecture.md's module tables against the code: every target of Package.swift has a row,
/// and the modules a row lists are the ones its files import, as `scripts/check-imports --json` finds.
@Suite struct ArchitectureDocTests {
    /// A target as `scripts/check-imports --json` describes it.
    struct Target: Decodable {
        let name: String
        let type: String
        /// The modules its Swift files import, the toolchain's left out.
        let imports: [String]
    }

    /// One row of a module table: the target's name and the modules its last cell names in backticks.
    struct Row {
        let line: Int
        let imports: Set<String>
    }

    static func targets() throws -> [Target] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repository.path("scripts/check-imports"), "--json"]
        process.currentDirectoryURL = Repository.root
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CheckImportsFailed(message: String(decoding: errors, as: UTF8.self))
        }
        struct Graph: Decodable { let targets: [Target] }
        return try JSONDecoder().decode(Graph.self, from: output).targets
    }

    struct CheckImportsFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { "scripts/check-imports --json failed: \(message)" }
    }

    /// The rows of the tables under "## Modules" whose first cell is one name in backticks, by name.
    static func rows(of text: String) -> [String: Row] {
        var rows: [String: Row] = [:]
        var inModules = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("## ") { inModules = line == "## Modules" }
            guard inModules, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            guard let first = cells.first, let last = cells.last,
                let name = first.firstMatch(of: #/^\s*`([^`]+)`\s*$/#)?.1
            else { continue }
            rows[String(name)] = Row(
                line: index + 1, imports: Set(last.matches(of: #/`([^`]+)`/#).map { String($0.1) }))
        }
        return rows
    }

    @Test func everyTargetHasARowListingWhatItImports() throws {
        let text = try String(contentsOf: Repository.url("docs/architecture.md"), encoding: .utf8)
        let rows = Self.rows(of: text)
        let targets = try Self.targets()
        #expect(targets.count > 20, "the targets were not found: \(targets.count)")
        for target in targets {
            guard let row = rows[target.name] else {
                Issue.record("docs/architecture.md has no row for the \(target.type) target \(target.name)")
                continue
            }
            let found = Set(target.imports)
            #expect(
                row.imports == found,
                """
                docs/architecture.md:\(row.line): \(target.name) imports \(found.sorted()), the row says \
                \(row.imports.sorted()) (missing \(found.subtracting(row.imports).sorted()), \
                not imported \(row.imports.subtracting(found).sorted()))
                """)
        }
        let names = Set(targets.map(\.name))
        for (name, row) in rows where !names.contains(name) {
            Issue.record("docs/architecture.md:\(row.line): \(name) is not a target of Package.swift")
        }
    }

    @Test func theTableReaderFindsRowsAndTheirImports() {
        let text = """
            ## Modules
            | target | kind | what | imports |
            |---|---|---|---|
            | `A` | library | holds `X` | `B`, `C` |
            | `D` | C | none | none (C: libc) |
            ## Elsewhere
            | `E` | library | | `F` |
            """
        let rows = Self.rows(of: text)
        #expect(rows.keys.sorted() == ["A", "D"])
        #expect(rows["A"]?.imports == ["B", "C"])
        #expect(rows["D"]?.imports == [])
    }

    /// README.md and docs/ speak of nothing outside the repository: no data folder beside the
    /// checkout (the calibration photos), no machine's absolute path.
    @Test func theDocsNameNothingOutsideTheRepository() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Repository.path("docs"))
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        #expect(docs.count >= 5)
        for path in ["README.md"] + docs {
            let text = try String(contentsOf: Repository.url(path), encoding: .utf8)
            for outside in ["../shared", "/work/"] where text.contains(outside) {
                Issue.record("\(path) names \(outside), outside the repository")
            }
        }
    }
}
