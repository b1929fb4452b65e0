import Foundation
import MorningProofCore

/// What the browser says it asked the authenticator (clientDataJSON, WebAuthn §5.8.1): the
/// ceremony, the challenge and the page's origin.
public struct ClientData: Sendable, Equatable {
    public let type: String
    public let challenge: [UInt8]
    public let origin: String

    /// `webauthn.create` for a registration, `webauthn.get` for a sign-in.
    public enum Ceremony: String, Sendable {
        case registration = "webauthn.create"
        case authentication = "webauthn.get"
    }

    private struct Fields: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
    }

    /// Reads clientDataJSON and checks its type and origin (exactly `origin`, and not from a frame
    /// of another site); the challenge is the caller's to look up.
    public init(json: [UInt8], ceremony: Ceremony, origin expected: String) throws {
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(json)) else {
            throw WebAuthnError.malformed("clientDataJSON: not JSON with a type, challenge and origin")
        }
        guard fields.type == ceremony.rawValue else {
            throw WebAuthnError.mismatch("clientDataJSON: type \"\(fields.type)\", not \"\(ceremony.rawValue)\"")
        }
        guard fields.origin == expected else {
            throw WebAuthnError.mismatch("clientDataJSON: origin \"\(fields.origin)\", not this server's \(expected)")
        }
        guard fields.crossOrigin != true else {
            throw WebAuthnError.mismatch("clientDataJSON: asked from a frame of another site")
        }
        guard let challenge = Base64URL.decode(fields.challenge), challenge.count >= 16 else {
            throw WebAuthnError.malformed("clientDataJSON: the challenge is not base64url of 16 bytes or more")
        }
        self.type = fields.type
        self.challenge = Array(challenge)
        self.origin = fields.origin
    }
}
