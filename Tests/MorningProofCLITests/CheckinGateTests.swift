import Foundation
import MorningProofTestSupport
import Testing

/// End-to-end: the check-in, the gate, gate unlocks and quotes, through the built binary.
@Suite struct CheckinGateTests {
    func object(_ cli: CLI, _ arguments: [String], now: String) throws -> [String: Any] {
        try #require(try cli.json(arguments, now: now) as? [String: Any])
    }

    @Test func asksOnceADayAcrossMidnightAndWithADayStart() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["checkin", "setup", "--preset", "faith"], now: "2026-03-01T07:00:00Z").status == 0)
        var status = try object(cli, ["checkin", "status"], now: "2026-03-01T07:01:00Z")
        #expect(status["shouldAsk"] as? Bool == true)
        #expect(status["question"] as? String == "Have you spent time with God today?")
        // Not a terminal: the question and how to answer, nothing stored.
        let asked = try cli.run(["checkin"], now: "2026-03-01T07:02:00Z")
        #expect(asked.status == 0)
        #expect(asked.stdout.contains("Have you spent time with God today?"))
        #expect(asked.stdout.contains("morningproof checkin yes"))
        #expect(try cli.run(["checkin", "yes"], now: "2026-03-01T07:30:00Z").stdout.contains("Check-in recorded: yes"))
        status = try object(cli, ["checkin", "status"], now: "2026-03-01T23:59:59Z")
        #expect(status["shouldAsk"] as? Bool == false)
        #expect(status["answeredYes"] as? Bool == true)
        #expect(status["currentStreak"] as? Int == 1)
        #expect(status["lastAnsweredAt"] as? String == "2026-03-01T07:30:00Z")
        #expect(
            try cli.run(["checkin"], now: "2026-03-01T12:00:00Z").stdout.contains("Today's check-in (2026-03-01): yes"))
        status = try object(cli, ["checkin", "status"], now: "2026-03-02T00:00:00Z")
        #expect(status["shouldAsk"] as? Bool == true)
        #expect(status["answeredToday"] as? Bool == false)

        // With the day starting at 04:00, 03:30 still belongs to the day before.
        #expect(try cli.run(["config", "set", "day-start", "04:00"], now: "2026-03-02T05:00:00Z").status == 0)
        #expect(try cli.run(["checkin", "yes"], now: "2026-03-02T05:00:00Z").status == 0)
        status = try object(cli, ["checkin", "status"], now: "2026-03-03T03:30:00Z")
        #expect(status["day"] as? String == "2026-03-02")
        #expect(status["shouldAsk"] as? Bool == false)
        #expect(status["currentStreak"] as? Int == 2)
        status = try object(cli, ["checkin", "status"], now: "2026-03-03T04:00:00Z")
        #expect(status["day"] as? String == "2026-03-03")
        #expect(status["shouldAsk"] as? Bool == true)
    }

    @Test func aNoCanBecomeYesButAYesStays() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try cli.run(["checkin", "setup"], now: "2026-03-01T07:00:00Z")
        let no = try cli.run(["checkin", "no"], now: "2026-03-01T07:05:00Z")
        #expect(no.status == 0)
        #expect(no.stdout.contains("Check-in recorded: no"))
        #expect(try cli.run(["gate", "--quiet"], now: "2026-03-01T07:06:00Z").status == 1)
        var status = try object(cli, ["checkin", "status"], now: "2026-03-01T07:06:00Z")
        #expect(status["answer"] as? String == "no")
        #expect(status["shouldAsk"] as? Bool == false)
        #expect(status["currentStreak"] as? Int == 0)
        #expect(try cli.run(["checkin", "yes"], now: "2026-03-01T09:00:00Z").stdout.contains("now yes"))
        #expect(try cli.run(["gate", "--quiet"], now: "2026-03-01T09:01:00Z").status == 0)
        let again = try cli.run(["checkin", "no"], now: "2026-03-01T10:00:00Z")
        #expect(again.stdout.contains("a yes stands for the day"))
        status = try object(cli, ["checkin", "status"], now: "2026-03-01T10:01:00Z")
        #expect(status["answer"] as? String == "yes")
        #expect(status["currentStreak"] as? Int == 1)
        // undo clears the answer and its entry; reset clears a no.
        #expect(
            try cli.run(["undo", "checkin"], now: "2026-03-01T11:00:00Z").stdout.contains("cleared today"))
        status = try object(cli, ["checkin", "status"], now: "2026-03-01T11:01:00Z")
        #expect(status["shouldAsk"] as? Bool == true)
        #expect(status["currentStreak"] as? Int == 0)
        try cli.run(["checkin", "no"], now: "2026-03-01T11:02:00Z")
        #expect(
            try cli.run(["undo", "checkin"], now: "2026-03-01T11:02:30Z").stdout.contains("check-in answer (was no)"))
        #expect(try object(cli, ["checkin", "status"], now: "2026-03-01T11:02:40Z")["shouldAsk"] as? Bool == true)
        try cli.run(["checkin", "no"], now: "2026-03-01T11:02:50Z")
        #expect(try cli.run(["checkin", "reset"], now: "2026-03-01T11:03:00Z").stdout.contains("was no"))
        status = try object(cli, ["checkin", "status"], now: "2026-03-01T11:04:00Z")
        #expect(status["answeredToday"] as? Bool == false)
    }

    @Test func gateWaitsForRequiredHabitsAndTheCheckin() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let morning = "2026-03-02T07:00:00Z"
        #expect(try cli.run(["gate"], now: morning).status == 0)  // nothing asked of anyone
        try cli.run(["habit", "add", "Make bed", "--required"], now: "2026-03-01T07:00:00Z")
        try cli.run(["habit", "add", "Run", "--every", "3", "--required"], now: "2026-03-01T07:00:00Z")
        try cli.run(["habit", "add", "Read"], now: "2026-03-01T07:00:00Z")
        try cli.run(["done", "run"], now: "2026-03-01T08:00:00Z")
        let closed = try cli.run(["gate"], now: morning)
        #expect(closed.status == 1)
        #expect(closed.stdout.contains("Make bed"))
        #expect(!closed.stdout.contains("○ Run"))  // done yesterday, not due again until 2026-03-04
        #expect(!closed.stdout.contains("○ Read"))  // not required
        var gate = try object(cli, ["gate"], now: morning)
        #expect(gate["open"] as? Bool == false)
        #expect((gate["pending"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Make bed"])
        #expect(gate["checkin"] as? String == "none")
        #expect(try cli.run(["gate", "--quiet"], now: morning).stdout.isEmpty)
        try cli.run(["skip", "make bed"], now: morning)
        #expect(try cli.run(["gate"], now: morning).status == 0)
        // A check-in closes it again until today's answer is yes.
        try cli.run(["checkin", "setup", "--preset", "faith"], now: morning)
        let waiting = try cli.run(["gate"], now: morning)
        #expect(waiting.status == 1)
        #expect(waiting.stdout.contains("Have you spent time with God today?"))
        #expect(waiting.stdout.contains("Matthew 6:33"))
        #expect(waiting.stdout.contains("Pray for 10 minutes"))
        try cli.run(["checkin", "yes"], now: morning)
        gate = try object(cli, ["gate"], now: morning)
        #expect(gate["open"] as? Bool == true)
        #expect(gate["checkin"] as? String == "yes")
        #expect(try cli.run(["gate"], now: "2026-03-03T07:00:00Z").status == 1)  // a new day asks again
    }

    @Test func unlocksAreLimitedInAnyRollingWeekAndReported() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try cli.run(["habit", "add", "Make bed", "--required"], now: "2026-03-01T07:00:00Z")
        // One excuse a week (the default is 2), set by the older name of excuses.per-week.
        #expect(try cli.run(["config", "set", "gate.unlocks-per-week", "1"], now: "2026-03-01T07:00:00Z").status == 0)
        #expect(try cli.run(["gate", "unlock", "--reason", " "], now: "2026-03-02T07:00:00Z").status == 64)
        let first = try cli.run(["gate", "unlock", "--reason", "early flight"], now: "2026-03-02T07:00:00Z")
        #expect(first.status == 0)
        #expect(try cli.run(["gate"], now: "2026-03-02T22:00:00Z").status == 0)
        #expect(try cli.run(["gate"], now: "2026-03-03T07:00:00Z").status == 1)  // only for that day
        let refused = try cli.run(["gate", "unlock", "--reason", "again"], now: "2026-03-08T07:00:00Z")
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("2026-03-09"))
        #expect(try cli.run(["gate", "--quiet"], now: "2026-03-08T07:00:00Z").status == 1)
        #expect(try cli.run(["gate", "unlock", "--reason", "a week later"], now: "2026-03-09T07:00:00Z").status == 0)
        #expect(try cli.run(["config", "set", "gate.unlocks-per-week", "2"], now: "2026-03-10T07:00:00Z").status == 0)
        #expect(try cli.run(["gate", "unlock", "--reason", "second"], now: "2026-03-10T07:00:00Z").status == 0)
        #expect(try cli.run(["gate", "unlock", "--reason", "third"], now: "2026-03-11T07:00:00Z").status == 1)
        #expect(try cli.run(["config", "set", "gate.unlocks-per-week", "8"], now: "2026-03-11T07:00:00Z").status == 64)
        let report = try cli.run(["report", "--weeks", "2"], now: "2026-03-11T07:00:00Z")
        #expect(
            report.stdout.contains(
                "Gate unlocks (3): 2026-03-02 (early flight); 2026-03-09 (a week later); 2026-03-10 (second)"))
        let json = try object(cli, ["report", "--weeks", "2"], now: "2026-03-11T07:00:00Z")
        let unlocks = try #require(json["gateUnlocks"] as? [[String: Any]])
        #expect(unlocks.compactMap { $0["reason"] as? String } == ["early flight", "a week later", "second"])
    }

    @Test func quotesAreTheSameInEveryProcessAndFollowTheFormula() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let one = try cli.run(["quote", "--at", "2026-05-17T08:42:31Z", "--json"], now: "2026-05-17T09:00:00Z")
        let two = try cli.run(["quote", "--at", "2026-05-17T08:42:31Z", "--json"], now: "2026-06-01T00:00:00Z")
        #expect(one.status == 0)
        #expect(one.stdout == two.stdout)
        let quote = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
        let count = try #require(quote["count"] as? Int), step = try #require(quote["step"] as? Int)
        #expect(quote["window"] as? Int == 104)  // 08:40
        #expect(quote["index"] as? Int == (104 + 137 * step) % count)  // 17 May is day 137
        #expect((quote["text"] as? String)?.isEmpty == false)

        // A quotes file of 292: docs/cli.md's worked example, and the grace period.
        let quotes = (0..<292).map {
            "{\"id\": \"q\($0)\", \"text\": \"Quote \($0).\", \"author\": \"A\", \"bookTitle\": \"B\", \"bookId\": \"b\", \"tags\": [], \"isActive\": true, \"dateAdded\": \"2026-01-01\"}"
        }
        let file = cli.directory.appendingPathComponent("quotes.json")
        try ("[\n" + quotes.joined(separator: ",\n") + "\n]\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(try cli.run(["config", "set", "quotes.file", file.path], now: "2026-01-01T00:00:00Z").status == 0)
        let example = try object(cli, ["quote", "--at", "2026-01-01T11:00:30Z"], now: "2026-01-01T12:00:00Z")
        #expect(example["window"] as? Int == 132)
        #expect(example["index"] as? Int == 169)
        #expect(example["id"] as? String == "q169")
        #expect(
            try object(cli, ["quote", "--at", "2026-01-02T11:02:00Z"], now: "2026-01-02T12:00:00Z")["index"] as? Int
                == 206)
        let grace = try object(cli, ["quote", "--at", "2026-01-01T11:00:29Z"], now: "2026-01-01T12:00:00Z")
        #expect(grace["window"] as? Int == 131)
        #expect(grace["inGrace"] as? Bool == true)
        let history = try object(cli, ["quote", "history"], now: "2026-01-01T00:12:00Z")
        #expect((history["windows"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["q37", "q38", "q39"])

        // A bad file is refused with its line and reason, and the setting is kept.
        let bad = cli.directory.appendingPathComponent("bad.json")
        try ("[\n" + quotes[0] + ",\n" + quotes[1].replacingOccurrences(of: "\"author\": \"A\", ", with: "") + "\n]")
            .write(to: bad, atomically: true, encoding: .utf8)
        let refused = try cli.run(["config", "set", "quotes.file", bad.path], now: "2026-01-01T00:00:00Z")
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("line 3: quote 2 lacks the field \"author\""))
        #expect(try object(cli, ["config"], now: "2026-01-01T00:00:00Z")["quotes.file"] as? String == file.path)

        // The quotes file goes away: the gate's screen says so (and shows a built-in quote); the
        // quiet gate decides without reading quotes at all, so it says nothing.
        try FileManager.default.removeItem(at: file)
        let screen = try cli.run(["gate"], now: "2026-01-01T08:00:00Z")
        #expect(screen.stderr.contains(file.path))
        let quiet = try cli.run(["gate", "--quiet"], now: "2026-01-01T08:00:00Z")
        #expect(quiet.status == screen.status)
        #expect(quiet.stderr.isEmpty && quiet.stdout.isEmpty)
    }

    /// Runs the binary with the database and the moment in the environment, so that every argument
    /// after `--exec CMD` belongs to CMD.
    func runExec(_ cli: CLI, _ arguments: [String], now: String) throws -> CLI.Result {
        let result = try BuiltBinary.run(
            "morningproof", arguments,
            environment: ["MORNINGPROOF_DB": cli.database.path, "MORNINGPROOF_NOW": now, "TZ": "UTC", "NO_COLOR": "1"])
        return CLI.Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    @Test func execPassesArgumentsAndExitCodesThrough() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let now = "2026-03-02T07:00:00Z"
        #expect(try runExec(cli, ["gate", "--exec", "sh", "-c", "exit 7"], now: now).status == 7)
        let printed = try runExec(cli, ["gate", "--exec", "printf", "%s|", "-n", "--x", "--db", "--", "a b"], now: now)
        #expect(printed.status == 0)
        #expect(printed.stdout == "-n|--x|--db|--|a b|")
        #expect(try runExec(cli, ["gate", "--exec", "no-such-command-here"], now: now).status == 127)
        // Closed: the block screen, exit 1, and the command never runs.
        try cli.run(["habit", "add", "Make bed", "--required"], now: now)
        let marker = cli.directory.appendingPathComponent("ran")
        let closed = try runExec(cli, ["gate", "--exec", "touch", marker.path], now: now)
        #expect(closed.status == 1)
        #expect(closed.stdout.contains("The gate is closed for now"))
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }
}
