import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// `GET /api/stats/summary`: `today` left out (not null) when today has no update.
struct SummaryJSON: Encodable {
    let day: String
    let timezone: String
    let currentStreak: Int
    let longestStreak: Int
    let today: DailyUpdateJSON?

    init(_ summary: CheckinSummary) {
        day = summary.day.description
        timezone = summary.timeZone
        currentStreak = summary.currentStreak
        longestStreak = summary.longestStreak
        today = summary.today.map(DailyUpdateJSON.init)
    }
}
