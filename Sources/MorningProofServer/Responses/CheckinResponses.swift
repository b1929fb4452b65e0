import Foundation
import MorningProofCore
import MorningProofService

/// `GET /api/checkin`: the fields of `checkin status --json`, and the words the block screen shows
/// (the verse and the suggestions; both left out when no check-in is set up).
struct CheckinStateJSON: Encodable, Sendable {
    let status: CheckinStatusJSON
    let texts: CheckinTexts?

    func encode(to encoder: Encoder) throws {
        try status.encode(to: encoder)
        enum Keys: String, CodingKey { case verse, suggestions }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeIfPresent(texts?.verse, forKey: .verse)
        try container.encodeIfPresent(texts?.suggestions, forKey: .suggestions)
    }
}
