import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// `GET /api/auth/me`: `timezone` (and `email`, for an owner without one) left out when unset.
struct UserJSON: Encodable {
    let id: Int64
    let email: String?
    let timezone: String?
    let dayStart: String
    let weekStart: String

    init(_ profile: AccountProfile) {
        id = profile.id
        email = profile.email
        timezone = profile.timeZone
        dayStart = formatClockTime(profile.dayStart)
        weekStart = Weekday.names[profile.weekStart - 1]
    }
}

struct SignUpJSON: Encodable {
    let token: String
    let user: UserJSON
}

struct LogInJSON: Encodable {
    let token: String
    let expiresAt: String
}

/// A stored daily update; `score` left out when none was sent.
struct DailyUpdateJSON: Encodable {
    let date: String
    let score: Double?
    let metrics: [String: JSONValue]
    let recordedAt: String

    init(_ update: DailyUpdate) {
        date = update.day.description
        score = update.score
        metrics = update.metrics
        recordedAt = ISOInstant.format(
            update.recordedAt, in: TimeZone(identifier: update.zone) ?? TimeZone(secondsFromGMT: 0)!)
    }
}

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
