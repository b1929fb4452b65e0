import Foundation
import MorningProofCore
import Testing

@Suite("Rules the store applies in its transactions")
struct StoredDecisionRulesTests {
    let day = LocalDay("2026-11-18")!

    @Test("a repeated photo: the same file wins over a close copy, the closest copy over a farther one")
    func repeatedPhoto() {
        let earlier = [
            ProofPolicy.EarlierProof(day: day, habitID: 1, sha256: "aa", perceptualHash: 0b1111),
            ProofPolicy.EarlierProof(day: day.adding(days: 1), habitID: 1, sha256: "bb", perceptualHash: 0b0111),
            ProofPolicy.EarlierProof(day: day.adding(days: 2), habitID: 2, sha256: "cc", perceptualHash: -1),
        ]
        let copy = ProofPolicy.repeated(sha256: "zz", perceptualHash: 0b0011, among: earlier, maxDistance: 6)
        #expect(copy == EvidenceMatch(day: day.adding(days: 1), habitID: 1, sameFile: false, distance: 1))
        let same = ProofPolicy.repeated(sha256: "cc", perceptualHash: 0b0011, among: earlier, maxDistance: 6)
        #expect(same?.sameFile == true && same?.habitID == 2)
        #expect(ProofPolicy.repeated(sha256: "zz", perceptualHash: -1 << 20, among: earlier, maxDistance: 6) == nil)
    }

    @Test("a notification is claimed again only when it failed, or its claim outlived the lease, and attempts remain")
    func claimTakeover() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        func takeover(_ state: NotificationState, attempts: Int = 1, claimedAt: Date? = nil) -> NotificationClaimRule.Takeover? {
            NotificationClaimRule.takeover(
                state: state, attempts: attempts, claimedAt: claimedAt, lastError: "hook exited 1", now: now,
                lease: 70, maxAttempts: 5)
        }
        #expect(takeover(.delivered) == nil)
        #expect(takeover(.failed)?.lastError == "hook exited 1")
        #expect(takeover(.failed, attempts: 5) == nil)
        #expect(takeover(.claimed, claimedAt: now.addingTimeInterval(-30)) == nil)
        #expect(takeover(.claimed, claimedAt: now.addingTimeInterval(-71))?.lastError?.contains("did not finish") == true)
    }
}
