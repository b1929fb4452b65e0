import Foundation
import MorningProofTestSupport
import Testing

/// README.md and docs/*.md as a reader uses them: every link leads somewhere in the repository,
/// every command shown exists and parses, the CLI's commands run on a demo database without a
/// usage error, and every script named is there.
@Suite struct DocsTests {
    let documents: [MarkdownDocument]

    init() throws { documents = try MarkdownDocument.all() }

    var repository: URL { MarkdownDocument.repository }

    @Test func linksLeadToFilesAndHeadingsInTheRepository() throws {
        let byPath = Dictionary(uniqueKeysWithValues: documents.map { ($0.path, $0) })
        let root = repository.standardizedFileURL.path + "/"
        var checked = 0
        for document in documents {
            for link in document.links {
                let place = "\(document.path):\(link.line): \(link.target)"
                if link.target.hasPrefix("https://") || link.target.hasPrefix("http://") { continue }
                let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = String(parts[0]), anchor = parts.count > 1 ? String(parts[1]) : nil
                #expect(!file.hasPrefix("/"), "\(place): an absolute path")
                let target =
                    file.isEmpty
                    ? repository.appendingPathComponent(document.path)
                    : repository.appendingPathComponent(document.path).deletingLastPathComponent()
                        .appendingPathComponent(file).standardizedFileURL
                guard target.path.hasPrefix(root) else {
                    Issue.record("\(place): outside the repository")
                    continue
                }
                #expect(FileManager.default.fileExists(atPath: target.path), "\(place): no such file")
                if let anchor {
                    let inside = String(target.path.dropFirst(root.count))
                    let anchors = byPath[inside]?.anchors ?? []
                    #expect(anchors.contains(anchor), "\(place): no heading with that anchor in \(inside)")
                }
                checked += 1
            }
        }
        #expect(checked > 15, "the links were not found: \(checked)")
    }

    /// Every `morningproof` and `morningproof-server` command of a code block, and every inline one
    /// (`morningproof ...`, or a span that starts with a subcommand, such as `habit add NAME [--note TEXT]`):
    /// its subcommands exist and it takes the options it is shown with.
    @Test func everyCommandShownExistsAndTakesItsOptions() throws {
        let cli = try CommandTree.of("morningproof"), server = try CommandTree.of("morningproof-server")
        var checked = 0
        for document in documents {
            let shown =
                document.blockCommands.map { ($0.line, $0.text, false) }
                + document.spans.map { ($0.line, $0.text, true) }
            for (line, text, inline) in shown {
                // A syntax summary's brackets and other choices (`--per week|month`, `A | B`) are not
                // part of the command; a span of one word names a command rather than showing one.
                let cleaned =
                    inline
                    ? text.replacingOccurrences(of: " | ", with: " ").replacing(#/\|[^\s\]]*/#, with: "")
                        .filter { $0 != "[" && $0 != "]" } : text
                let words = shellWords(cleaned)
                guard !inline || (words.count > 1 && text.hasPrefix(words[0] + " ")),
                    let found = Self.program(of: words, cli: cli, server: server, bare: inline)
                else { continue }
                let tree = found.program == "morningproof" ? cli : server
                if let problem = tree.problem(with: found.words) {
                    Issue.record("\(document.path):\(line): \(text): \(problem)")
                }
                checked += 1
            }
        }
        #expect(checked > 60, "the commands were not found: \(checked)")
    }

    /// Which program a command runs and its arguments; nil for other programs. With `bare`, words that
    /// start with a subcommand's name (an inline span such as `habit add NAME`) are that program's.
    static func program(of words: [String], cli: CommandTree, server: CommandTree, bare: Bool = false)
        -> (program: String, words: [String])?
    {
        guard var first = words.first else { return nil }
        for prefix in [".build/debug/", ".build/release/"] where first.hasPrefix(prefix) {
            first.removeFirst(prefix.count)
        }
        if first == "morningproof" || first == "morningproof-server" { return (first, Array(words.dropFirst())) }
        guard bare, first != "help" else { return nil }
        if cli.subcommands[first] != nil { return ("morningproof", words) }
        if server.subcommands[first] != nil { return ("morningproof-server", words) }
        return nil
    }

    /// The code blocks' `morningproof` commands, run in the order the docs show them (README first)
    /// on one demo database in a temporary directory, from a folder that has the repository's
    /// SampleImages, Tests and scripts: none may end in a usage error (64). The docs tell one story:
    /// the tour's habits, kept from one page to the next, have a week of history on 2026-03-09, so
    /// `habit add` runs a week before the other commands. `morningproof-server` runs only its
    /// `token` commands there; the others start a server or need PostgreSQL. `watch` (which runs
    /// until stopped) and `gate --exec` (which runs another program) are only checked for their options.
    @Test func codeBlockCommandsRunWithoutAUsageError() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(
            "morningproof-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        for folder in ["SampleImages", "Tests", "scripts"] {
            try FileManager.default.createSymbolicLink(
                at: work.appendingPathComponent(folder), withDestinationURL: repository.appendingPathComponent(folder))
        }
        let binaries = BuiltBinary.url("morningproof").deletingLastPathComponent().path
        let cli = try CommandTree.of("morningproof"), server = try CommandTree.of("morningproof-server")
        let environment = [
            "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": work.path, "XDG_DATA_HOME": work.appendingPathComponent("data").path,
            "MORNINGPROOF_DB": work.appendingPathComponent("demo.sqlite").path,
            "MORNINGPROOF_NOW": "2026-03-09T07:10:00-04:00", "NO_COLOR": "1", "TZ": "UTC",
        ]
        var ran = 0
        for document in documents {
            for command in document.blockCommands {
                guard let found = Self.program(of: shellWords(command.text), cli: cli, server: server),
                    found.program == "morningproof" || found.words.first == "token", !command.text.hasSuffix("&"),
                    found.words.first != "watch", !found.words.contains("--exec")
                else { continue }
                // The shell expands `~`, `$PWD` and quotes as a reader's would; the program is the built one.
                let line = found.program + " " + command.text.drop { $0 != " " }
                let adds = found.words.starts(with: ["habit", "add"])
                let result = try BuiltBinary.run(
                    executable: URL(fileURLWithPath: "/bin/bash"), ["-c", "cd \"$0\" && exec \(line)", work.path],
                    environment: environment.merging(adds ? ["MORNINGPROOF_NOW": "2026-03-01T07:00:00-05:00"] : [:]) {
                        $1
                    })
                #expect(
                    result.status != 64,
                    "\(document.path):\(command.line): \(command.text): usage error: \(result.stderr)")
                ran += 1
            }
        }
        #expect(ran > 30, "the commands were not found: \(ran)")
    }

    /// A script the docs name exists; one they run is executable.
    @Test func scriptsNamedExist() throws {
        var named = 0
        for document in documents {
            let text = try String(contentsOf: repository.appendingPathComponent(document.path), encoding: .utf8)
            for match in text.matches(of: #/scripts/[A-Za-z0-9_./-]*[A-Za-z0-9_/-]/#) {
                let path = String(match.0)
                #expect(
                    FileManager.default.fileExists(atPath: repository.appendingPathComponent(path).path),
                    "\(document.path): \(path) does not exist")
                named += 1
            }
            let run = document.blockCommands.map(\.text) + document.spans.map(\.text)
            for words in run.map(shellWords) {
                // Scripts have no extension; hello.swift, block-sites.sh and the like are named, not run.
                guard let first = words.first, first.hasPrefix("scripts/"), !first.hasSuffix("/"),
                    !(first.split(separator: "/").last ?? "").contains(".")
                else { continue }
                #expect(
                    FileManager.default.isExecutableFile(atPath: repository.appendingPathComponent(first).path),
                    "\(document.path): \(first) is run but is not executable")
            }
        }
        #expect(named > 20, "the scripts were not found: \(named)")
    }

    /// The code, the tests, the scripts and the docs cite nothing outside the repository: no design
    /// document of another place, no absolute path of a machine. Data beside the repository (the
    /// calibration photos under ../shared/calibration) may be read, and named.
    @Test func nothingCitesADocumentOutsideTheRepository() throws {
        let outside = ["DESIGN" + ".md", "CONVENTIONS" + ".md", "/work/" + "main"]
        var read = 0
        for folder in ["Sources", "Tests", "scripts", "docs", "README.md", ".ci"] {
            let top = repository.appendingPathComponent(folder)
            let files =
                folder.hasSuffix(".md")
                ? [top]
                : FileManager.default.enumerator(at: top, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }
                    ?? []
            for file in files where !file.path.contains("/Fixtures/") {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                read += 1
                for name in outside where text.contains(name) {
                    Issue.record("\(file.path) cites \(name)")
                }
                for match in text.matches(of: #/\.\./shared/[A-Za-z]*/#) where match.0 != "../shared/calibration" {
                    Issue.record("\(file.path) cites \(match.0)")
                }
            }
        }
        #expect(read > 100, "the files were not read: \(read)")
    }
}
