import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

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
