import Foundation
import MorningProofTestSupport
import TestFixtures

/// One Markdown file of the documentation (README.md or docs/*.md), read for what the docs test
/// checks: its headings, its links, its fenced code blocks and its inline code spans.
struct MarkdownDocument {
    /// The path inside the repository, such as `docs/cli.md`.
    let path: String
    /// The anchors of its headings, as GitHub makes them (`## Photo proof: verify` -> `photo-proof-verify`).
    var anchors: Set<String> = []
    var links: [(line: Int, target: String)] = []
    var blocks: [(language: String, line: Int, lines: [String])] = []
    var spans: [(line: Int, text: String)] = []

    /// The repository this test file belongs to.
    static let repository = Repository.root

    /// README.md and every docs/*.md, in that order.
    static func all() throws -> [MarkdownDocument] {
        let docs = try FileManager.default.contentsOfDirectory(
            atPath: repository.appendingPathComponent("docs").path
        ).filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return try (["README.md"] + docs).map { try MarkdownDocument(path: $0) }
    }

    init(path: String) throws {
        self.path = path
        let text = try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
        // The prose: the text with each fenced block's lines blanked, so that line numbers stay.
        var prose: [String] = []
        var fence: (language: String, line: Int, lines: [String])?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if let open = fence {
                    blocks.append(open)
                    fence = nil
                } else {
                    fence = (String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), index + 1, [])
                }
                prose.append("")
            } else if fence != nil {
                fence?.lines.append(line)
                prose.append("")
            } else {
                prose.append(line)
                if line.hasPrefix("#") { anchors.insert(Self.anchor(line.drop { $0 == "#" })) }
            }
        }
        let joined = prose.joined(separator: "\n")
        func line(at index: String.Index, in text: String? = nil) -> Int {
            (text ?? joined)[..<index].filter { $0 == "\n" }.count + 1
        }
        // Code spans may run over a line break; a link inside one is not a link.
        let span = #/`([^`]+)`/#
        spans = joined.matches(of: span).map {
            (line(at: $0.range.lowerBound), String($0.1).replacingOccurrences(of: "\n", with: " "))
        }
        let outsideSpans = joined.replacing(span) { String($0.0.map { $0 == "\n" ? "\n" : " " }) }
        for match in outsideSpans.matches(of: #/\]\(([^)\s]+)\)/#) {
            links.append((line(at: match.range.lowerBound, in: outsideSpans), String(match.1)))
        }
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: Substring) -> String {
        String(
            heading.trimmingCharacters(in: .whitespaces).lowercased().unicodeScalars.compactMap { scalar in
                if scalar == " " { return "-" }
                return CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_"
                    ? Character(scalar) : nil
            })
    }

    /// The commands its code blocks show: lines after a `$ ` prompt in any block, and every line of
    /// a `sh`, `bash` or `shell` block; a line ending in `\` goes on with the next.
    var blockCommands: [(line: Int, text: String)] {
        var commands: [(line: Int, text: String)] = []
        for block in blocks where !["json", "yaml", "text"].contains(block.language) {
            let shell = ["sh", "bash", "shell"].contains(block.language)
            var pending: (line: Int, text: String)?
            for (offset, raw) in block.lines.enumerated() {
                let number = block.line + offset + 1
                if var open = pending {
                    open.text += " " + raw.trimmingCharacters(in: .whitespaces)
                    pending = open
                } else if raw.hasPrefix("$ ") {
                    pending = (number, String(raw.dropFirst(2)))
                } else if shell && !raw.trimmingCharacters(in: .whitespaces).isEmpty && !raw.hasPrefix("#") {
                    pending = (number, raw)
                }
                guard let open = pending else { continue }
                if open.text.hasSuffix("\\") {
                    pending = (open.line, String(open.text.dropLast()))
                } else {
                    commands.append(open)
                    pending = nil
                }
            }
        }
        return commands
    }
}

/// The words of a command line as the shell splits them, up to the first operator (`|`, `&`, `;`,
/// `>`, `<`) or comment; quotes removed, nothing expanded.
func shellWords(_ line: String) -> [String] {
    var words: [String] = []
    var word: String?
    var quote: Character?
    var characters = line.makeIterator()
    while let character = characters.next() {
        if let open = quote {
            if character == open { quote = nil } else { word!.append(character) }
        } else if character == "'" || character == "\"" {
            quote = character
            word = word ?? ""
        } else if character == "\\" {
            word = (word ?? "") + String(characters.next() ?? " ")
        } else if character == " " || character == "\t" {
            if let done = word { words.append(done) }
            word = nil
        } else if "|&;<>".contains(character) || (character == "#" && word == nil) {
            // `2>/dev/null`: the 2 belongs to the redirection.
            if let done = word, !("<>".contains(character) && done.allSatisfy(\.isNumber)) { words.append(done) }
            return words
        } else {
            word = (word ?? "") + String(character)
        }
    }
    if let done = word { words.append(done) }
    return words
}

/// A command of `morningproof` or `morningproof-server` as its own `--experimental-dump-help` describes
/// it: options and subcommands, so that a command the docs show can be checked without running it.
struct CommandTree {
    let name: String
    /// Option name (`--db`, `-h`) -> whether it takes a value, and whether it takes every word after it.
    let options: [String: (takesValue: Bool, takesRest: Bool)]
    let subcommands: [String: CommandTree]
    let defaultSubcommand: String?
    /// Whether it takes any argument that is not an option (a name, a file).
    let takesArguments: Bool

    /// The tree of the built executable `program`.
    static func of(_ program: String) throws -> CommandTree {
        let dump = try BuiltBinary.run(program, ["--experimental-dump-help"])
        guard dump.status == 0,
            let json = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any],
            let root = json["command"] as? [String: Any]
        else { throw TestFailure("\(program) --experimental-dump-help failed: \(dump.stderr)") }
        return CommandTree(root)
    }

    init(_ json: [String: Any]) {
        name = json["commandName"] as? String ?? ""
        var options: [String: (takesValue: Bool, takesRest: Bool)] = [:]
        let arguments = json["arguments"] as? [[String: Any]] ?? []
        takesArguments = arguments.contains { $0["kind"] as? String == "positional" }
        for argument in arguments {
            let kind = argument["kind"] as? String
            guard kind != "positional" else { continue }
            let strategy = argument["parsingStrategy"] as? String ?? ""
            for name in argument["names"] as? [[String: Any]] ?? [] {
                let prefix = name["kind"] as? String == "long" ? "--" : "-"
                options[prefix + (name["name"] as? String ?? "")] =
                    (kind == "option", ["allRemainingInput", "postTerminator", "remaining"].contains(strategy))
            }
        }
        self.options = options
        let children = (json["subcommands"] as? [[String: Any]] ?? []).map(CommandTree.init)
        subcommands = Dictionary(children.map { ($0.name, $0) }) { first, _ in first }
        defaultSubcommand = json["defaultSubcommand"] as? String
    }

    /// What is wrong with `words` (the arguments after the program's name) for this command, or nil:
    /// a subcommand that does not exist, or an option its subcommand does not take. Options before
    /// the subcommand (`--db X`, `--now X`, `--json`) are checked against the subcommand too.
    func problem(with words: [String]) -> String? {
        var node = self
        var pathIndexes: Set<Int> = []
        var index = 0
        walk: while index < words.count {
            let word = words[index]
            if word.hasPrefix("-") {
                guard ["--db", "--now"].contains(word) || word == "--json" || word.contains("=") else { break walk }
                index += word.contains("=") || word == "--json" ? 1 : 2
            } else if let child = node.subcommands[word] {
                node = child
                pathIndexes.insert(index)
                index += 1
            } else {
                break walk
            }
        }
        while let next = node.defaultSubcommand, let child = node.subcommands[next] { node = child }
        if !node.subcommands.isEmpty && !words.contains(where: { $0 == "--help" || $0 == "-h" }) {
            let unknown = words.indices.first { !pathIndexes.contains($0) && !words[$0].hasPrefix("-") }
            return "\(node.name) has no subcommand \(unknown.map { words[$0] } ?? "given")"
        }
        index = 0
        while index < words.count {
            defer { index += 1 }
            let word = words[index]
            if pathIndexes.contains(index) { continue }
            if word == "--" { break }
            guard word.hasPrefix("-"), word.count > 1, !word.dropFirst().allSatisfy({ $0.isNumber }) else {
                if !node.takesArguments { return "\(node.name) takes no argument \(word)" }
                continue
            }
            let name = String(word.prefix { $0 != "=" })
            guard let option = node.options[name] else { return "\(node.name) takes no option \(name)" }
            if option.takesRest { break }
            if option.takesValue && !word.contains("=") { index += 1 }
        }
        return nil
    }
}
