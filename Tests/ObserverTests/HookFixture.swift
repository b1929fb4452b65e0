import Foundation
import MorningProofCore
import Observer
import MorningProofStoreContract
import TestFixtures
import MorningProofService

/// A hook script from Tests/Fixtures/hooks, copied as `hook` into a directory of its own, where it
/// writes what it saw (`status`, `signals`, `child.pid`, ...).
struct HookFixture {
    static let fixtures = Fixtures.url("hooks")

    let directory: URL
    var path: String { directory.appendingPathComponent("hook").path }

    init(_ name: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "morningproof-hook-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent(name), to: directory.appendingPathComponent("hook"))
    }

    /// The text the hook wrote to `name`, without its last newline; "" when it wrote nothing.
    func text(_ name: String) -> String {
        let text = (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    func lines(_ name: String) -> [String] { text(name).split(separator: "\n").map(String.init) }

    /// The pid the hook wrote to `name`.
    func pid(_ name: String) -> pid_t? { Int32(text(name).trimmingCharacters(in: .whitespaces)) }

    /// Kills what the hook left (the pids in child.pid and hook.pid, and their groups), removes the directory.
    func remove() {
        for name in ["child.pid", "hook.pid"] {
            if let pid = pid(name) {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
            }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// A goal.met event to hand to a hook.
    static let event = NotificationEvent(
        event: .goalMet, habit: "Walk", day: LocalDay("2026-03-10")!,
        goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000), value: 9000,
        message: "Walk: 9,000 steps today, goal at least 8,000 steps met.", at: "2026-03-10T18:00:00-04:00")
}

/// Runs `body` on a thread of its own whose signal mask blocks SIGTERM, SIGINT, SIGHUP and SIGALRM,
/// with SIGPIPE ignored in the process: what `check` and `watch` run hooks under (libdispatch's
/// worker threads block those signals; the server and the old hook runner ignored SIGPIPE).
func withHostileSignals<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGALRM] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let previous = signal(SIGPIPE, SIG_IGN)
        let value = body()
        signal(SIGPIPE, previous)
        result.withLock { $0 = value }
        done.signal()
    }
    thread.start()
    done.wait()
    return result.withLock { $0! }
}
