import Foundation
import MorningProofCore
import MorningProofService

/// `POST /api/gate/unlock` refused: no excuse is left this week (409).
struct NoExcuseLeftJSON: Encodable, Sendable {
    let error: String
    let code = "no_excuses_left"
    let excuseBackOn: String?

    func encode(to encoder: Encoder) throws {
        enum Keys: String, CodingKey { case error, code, excuseBackOn }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(error, forKey: .error)
        try container.encode(code, forKey: .code)
        try container.encode(excuseBackOn, forKey: .excuseBackOn)
    }
}

/// `POST /api/gate/pairing`: the one-time code, shown once.
struct PairingCodeJSON: Encodable, Sendable {
    let code: String
    let expiresAt: String

    init(_ code: PairingCode) {
        self.code = code.code
        expiresAt = ISOInstant.format(code.expiresAt, in: TimeZone(identifier: "UTC")!)
    }
}

/// `GET /api/gate/sites`: the shielded host patterns, what the browser extension's gate token reads.
struct GateSitesJSON: Encodable, Sendable {
    let sites: [String]
}
