import Foundation
import Testing

@testable import MorningProofCore

/// The score day by day, which the charts draw: it ends at the habit's score, and a skipped or
/// still open day keeps the day before's.
@Suite struct ScoreHistoryTests {
    @Test func dailyScoresEndAtTheScoreAndHoldOverSkips() {
        let t = timeline(.daily, from: "2026-03-01", "xxs.x", today: "2026-03-06")
        let scores = t.dailyScores
        #expect(scores.map(\.day.description) == ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"])
        let m = pow(0.5, 1.0 / 13)
        #expect(abs(scores[0].score - (1 - m)) < 1e-12)
        #expect(scores[2].score == scores[1].score)  // skipped
        #expect(scores[3].score < scores[2].score)  // missed
        #expect(scores[5].score == scores[4].score)  // today, still open
        #expect(scores.last?.score == t.score)
    }
}
