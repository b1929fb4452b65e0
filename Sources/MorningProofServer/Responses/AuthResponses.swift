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
