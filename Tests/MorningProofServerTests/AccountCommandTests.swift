import Foundation
import MorningProofTestSupport
import Testing

/// `morningproof-server account ...`, the operator's commands (issue 41), run as a person runs them.
@Suite("morningproof-server account: list, disable, enable, reset-password, set-login", .serialized)
struct AccountCommandTests {
    let database = FileManager.default.temporaryDirectory
        .appendingPathComponent("morningproof-account-\(UUID().uuidString)/data.sqlite").path

    private func run(_ arguments: [String], stdin: String? = nil) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        guard let stdin else { return try BuiltBinary.run("morningproof-server", arguments + ["--db", database]) }
        let command = ([BuiltBinary.url("morningproof-server").path] + arguments + ["--db", database])
            .map { "'\($0)'" }.joined(separator: " ")
        return try BuiltBinary.run(
            executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '%s\\n' '\(stdin)' | \(command)"])
    }

    @Test func theOwnerGetsALoginAndTheOperatorListsDisablesAndResets() throws {
        let weak = try run(["account", "set-login", "--owner", "ada@example.com", "--password-stdin"], stdin: "short")
        #expect(weak.status == 64 && weak.stderr.contains("at least 10 characters"), "\(weak.stderr)")
        let noOwner = try run(["account", "set-login", "ada@example.com", "--password-stdin"], stdin: "long enough pw")
        #expect(noOwner.status == 64 && noOwner.stderr.contains("--owner"), "\(noOwner.stderr)")
        let set = try run(
            ["account", "set-login", "--owner", "ada@example.com", "--password-stdin"], stdin: "long enough pw")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "The owner account signs in as ada@example.com now.\n")

        let listed = try run(["account", "list"])
        #expect(listed.status == 0)
        #expect(listed.stdout.hasPrefix("1  ada@example.com  created "), "\(listed.stdout)")
        #expect(listed.stdout.hasSuffix(", never seen, 0 habits\n"), "\(listed.stdout)")

        let missing = try run(["account", "disable", "nobody@example.com"])
        #expect(missing.status == 64)
        #expect(missing.stderr == "morningproof-server: no account has the email nobody@example.com\n")
        #expect(try run(["account", "disable", "ada@example.com"]).status == 0)
        let json = try run(["account", "list", "--json"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: [[String: Any]]])
        let owner = try #require(document["accounts"]?.first)
        #expect(owner["id"] as? Int == 1 && owner["email"] as? String == "ada@example.com")
        #expect(owner["disabled"] as? Bool == true && owner["habits"] as? Int == 0)
        #expect((owner["createdAt"] as? String)?.hasSuffix("Z") == true)
        #expect(try run(["account", "enable", "ada@example.com"]).stdout == "Enabled ada@example.com.\n")

        let link = try run(["account", "reset-password", "ada@example.com", "--public-url", "https://habits.example"])
        #expect(link.status == 0, "\(link.stderr)")
        let last = String(link.stdout.split(separator: "\n").last ?? "")
        #expect(last.hasPrefix("https://habits.example/#reset=") && last.count == 30 + 43, "\(last)")
        let badURL = try run(["account", "reset-password", "ada@example.com", "--public-url", "ftp://x"])
        #expect(badURL.status == 64)
    }
}
