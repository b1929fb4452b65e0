import Foundation
import MorningProofCore
import MorningProofTestSupport
import Testing

@testable import Observer
import MorningProofStoreContract

/// The hook runner against hooks that leave processes behind, flood their output, depend on
/// default signal handling, or cannot start at all (issue 24, findings 1, 2, 3 and 9).
@Suite struct HookProcessTests {
    /// Runs `fixture`'s hook for the test event; the failure's text, or nil when delivered.
    func deliver(_ fixture: HookFixture, timeout: TimeInterval) -> String? {
        let runner = HookRunner(path: fixture.path, timeout: timeout)
        return withHostileSignals { () -> String? in
            do {
                try runner.deliver(HookFixture.event)
                return nil
            } catch {
                return "\(error)"
            }
        }
    }

    @Test("a hook that exits 0 leaving a child that holds its output is delivered, and the child is left alone")
    func childInTheGroup() throws {
        let hook = try HookFixture("leaves-child")
        defer { hook.remove() }
        #expect(deliver(hook, timeout: 2) == nil)
        #expect(hook.lines("delivered").count == 1)
        let child = try #require(hook.pid("child.pid"))
        #expect(LiveProcess.isRunning(child), "what the hook started in the background is not the runner's to kill")
    }

    @Test("a hook that exits 0 leaving a child in a session of its own is delivered")
    func childInItsOwnSession() throws {
        let hook = try HookFixture("leaves-session")
        defer { hook.remove() }
        #expect(deliver(hook, timeout: 2) == nil)
        #expect(hook.lines("delivered").count == 1)
    }

    @Test("signals start at their defaults, unblocked; the hook leads its own group and gets no other descriptor")
    func cleanStart() throws {
        let hook = try HookFixture("describe-itself")
        defer { hook.remove() }
        // A descriptor without close-on-exec, as a database or a socket may be opened.
        let secret = hook.directory.appendingPathComponent("secret.sqlite").path
        #expect(FileManager.default.createFile(atPath: secret, contents: Data("x".utf8)))
        let descriptor = open(secret, O_RDONLY)
        defer { close(descriptor) }
        #expect(descriptor >= 0)
        #expect(deliver(hook, timeout: 5) == nil)
        #expect(hook.lines("signals") == ["SigBlk:\t0000000000000000", "SigIgn:\t0000000000000000"])
        #expect(hook.text("group") == "group leader")
        let descriptors = hook.lines("descriptors").map { $0.components(separatedBy: " -> ") }.filter { $0.count == 2 }
        let standard = Dictionary(
            descriptors.filter { ["0", "1", "2"].contains($0[0]) }.map { ($0[0], $0[1]) },
            uniquingKeysWith: { a, _ in a })
        // 0 and 2 are the runner's pipes (the shell has pointed 1 at the file ls writes).
        #expect(standard["0"]?.hasPrefix("pipe:") == true && standard["2"]?.hasPrefix("pipe:") == true)
        // Any other descriptor is the shell's own: the script it reads, or a copy of 0, 1 or 2.
        for descriptor in descriptors where standard[descriptor[0]] == nil {
            #expect(
                descriptor[1] == hook.path || standard.values.contains(descriptor[1]), "inherited: \(descriptor)")
        }
        #expect(!descriptors.contains { $0[1].contains("secret.sqlite") })
    }

    /// `timeout 1 sleep 8` needs SIGTERM to reach sleep; `yes | head` needs yes to die of SIGPIPE.
    @Test(
        "programs a hook runs get default signals: `timeout` works (124), `yes | head` ends yes by SIGPIPE (141)",
        arguments: [("timeout-inside", "124"), ("yes-head", "141")])
    func defaultSignals(fixture: String, status: String) throws {
        let hook = try HookFixture(fixture)
        defer { hook.remove() }
        #expect(deliver(hook, timeout: 5) == nil)
        #expect(hook.text("status") == status)
    }

    @Test("a hook that floods its output is killed at the timeout; its last line is the message")
    func flood() throws {
        let hook = try HookFixture("yes-forever")
        defer { hook.remove() }
        let failure = deliver(hook, timeout: 1)
        #expect(failure == "hook timed out after 1 s and was killed")
    }

    @Test("the output kept is a bounded tail, whatever the hook writes")
    func boundedTail() {
        var tail = OutputTail(limit: 1024)
        for _ in 0..<10_000 { tail.append(ArraySlice("y\n".utf8)) }
        tail.append(ArraySlice("last words\n".utf8))
        #expect(tail.bytes.count <= 2048)
        #expect(tail.lastLine == "last words")
        tail.append(ArraySlice(repeating: UInt8(ascii: "z"), count: 5000))
        #expect(tail.bytes.count == 1024)
    }

    @Test("a hook without a #! line, with a missing interpreter, deleted or not executable: a message to act on")
    func cannotStart() throws {
        let noShebang = try HookFixture("no-shebang")
        defer { noShebang.remove() }
        #expect(
            deliver(noShebang, timeout: 2)
                == "hook \(noShebang.path) is not a script or program this system can run: add a #! line (such as #!/bin/sh)"
        )
        let missing = try HookFixture("missing-interpreter")
        defer { missing.remove() }
        #expect(
            deliver(missing, timeout: 2)
                == "hook \(missing.path) cannot run: its interpreter /usr/bin/nonexistent does not exist")
        let notExecutable = try HookFixture("fails")
        defer { notExecutable.remove() }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: notExecutable.path)
        #expect(deliver(notExecutable, timeout: 2) == "hook \(notExecutable.path) is not executable (chmod +x it)")
        try FileManager.default.removeItem(atPath: notExecutable.path)
        #expect(
            deliver(notExecutable, timeout: 2)
                == "hook \(notExecutable.path) does not exist (deleted or moved?): set notify.hook again")
    }

    @Test("`config set notify.hook` refuses what exec would refuse: no #! line, a missing interpreter")
    func checkedWhenConfigured() throws {
        let noShebang = try HookFixture("no-shebang")
        let missing = try HookFixture("missing-interpreter")
        let fine = try HookFixture("fails")
        defer { [noShebang, missing, fine].forEach { $0.remove() } }
        #expect(
            throws: MorningProofError.usage(
                "notify.hook: \(HookStartProblem(path: noShebang.path, code: ENOEXEC))")
        ) {
            try NotifySettings.checkHook(noShebang.path)
        }
        #expect(
            throws: MorningProofError.usage(
                "notify.hook: hook \(missing.path) cannot run: its interpreter /usr/bin/nonexistent does not exist")
        ) {
            try NotifySettings.checkHook(missing.path)
        }
        #expect(try NotifySettings.checkHook(fine.path) == fine.path)
    }

    @Test("a shutdown request kills the running hook's group at once")
    func stopped() throws {
        let hook = try HookFixture("waits")
        defer { hook.remove() }
        let stop = ShutdownRequest()
        let runner = HookRunner(path: hook.path, timeout: 60)
        let failure = Locked<String?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                try runner.deliver(HookFixture.event, stop: stop)
            } catch let error as HookRunner.Failure {
                failure.withLock { $0 = error.description }
            } catch {}
            finished.signal()
        }
        #expect(LiveProcess.eventually(within: 10) { hook.pid("hook.pid") != nil })
        let pid = try #require(hook.pid("hook.pid"))
        stop.request()
        #expect(finished.wait(timeout: .now() + 10) == .success, "not frozen: the hook's 30 s sleep was cut short")
        #expect(failure.withLock { $0 } == "hook was stopped: shutting down")
        #expect(LiveProcess.eventually(within: 5) { !LiveProcess.isRunning(pid) })
    }
}
