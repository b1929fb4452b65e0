import Foundation
import Testing

@testable import MorningProofServer

/// The upload and photo pool runs below the rest of the server's priority, so that a sign-in's
/// hashing and other accounts' reads get a busy core first; the sign-in pool stays at the normal one.
@Suite("The CPU pool's priority")
struct CPUWorkPoolPriorityTests {
    /// The nice value of the thread that runs the work.
    static func niceness(on pool: CPUWorkPool) async throws -> Int32 {
        try await pool.run { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
    }

    @Test func theUploadPoolRunsItsWorkAtNiceTenAndLeavesTheCallerAlone() async throws {
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let pool = CPUWorkPool(threads: 2, queueLimit: 4, niceness: CPUWorkPool.heavyWorkNiceness)
        for _ in 0..<4 { #expect(try await Self.niceness(on: pool) == 10) }
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before)
    }

    @Test func thePasswordPoolKeepsTheNormalPriority() async throws {
        let pool = CPUWorkPool.passwordHashing(threads: 1, queueLimit: 1)
        #expect(try await Self.niceness(on: pool) == 0)
    }
}
