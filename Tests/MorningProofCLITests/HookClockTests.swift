import Foundation
import Testing

/// A failing hook's retry back-off (1, 2, 4, 8 minutes) follows the pass's clock (`--now`,
/// MORNINGPROOF_NOW), as the server's notification pass does, not the wall clock (issue 39, "One
/// clock"): cron replaying minutes, or a test, sees the retries it asks for.
@Suite struct HookClockTests {
    let checks = CheckCommandTests()

    /// A met Walk goal and a hook that fails its first attempt and delivers every later one.
    func walkWithAHookThatFailsOnce(_ cli: CLI) throws {
        try checks.walkWithSteps(cli)
        _ = try checks.hook(
            cli,
            """
            here=$(dirname "$0")
            if [ ! -e "$here/failed-once" ]; then : > "$here/failed-once"; echo "no network" >&2; exit 1; fi
            cat >> "$here/delivered"
            """)
    }

    @Test(arguments: [false, true])
    func threeChecksFiveMinutesApartDeliverAOnceFailedEventOnce(throughEnvironment: Bool) throws {
        let cli = try CLI()
        defer { cli.remove() }
        try walkWithAHookThatFailsOnce(cli)
        var printed = ""
        for at in ["2026-03-08T19:00:00Z", "2026-03-08T19:05:00Z", "2026-03-08T19:10:00Z"] {
            let check =
                throughEnvironment
                ? try cli.run(["check"], environment: ["MORNINGPROOF_NOW": at])
                : try cli.run(["check"], now: at)
            #expect(check.status == 0, "check at \(at): \(check.stderr)")
            printed += check.stdout
        }
        #expect(printed == "goal.met 2026-03-08 Walk: 8,412 steps today, goal at least 8,000 steps met.\n")
        #expect(checks.lines(cli, "delivered").count == 1, "the retry five minutes later delivered it, once")
        let listed = try cli.run(["notifications", "list"], now: "2026-03-08T19:10:00Z")
        #expect(listed.stdout.contains("delivered"), "\(listed.stdout)")
    }
}
