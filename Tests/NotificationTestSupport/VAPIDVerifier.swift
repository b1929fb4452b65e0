import MorningProofCore
import Crypto
import Foundation
import NotificationDelivery

/// Checks a VAPID `Authorization` as a push service does (RFC 8292).
public enum VAPIDVerifier {
    /// Why a push service would refuse a token.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The ES256 signature against `k`, `aud` equal to `audience`, `exp` after `now` and at most
    /// 24 hours later, `sub` a mailto: or https: contact. Returns the claims, or why not.
    public static func verify(authorization: String, audience: String, now: Date) -> Result<VAPIDToken.Claims, Problem>
    {
        guard authorization.hasPrefix("vapid ") else { return .failure(.init("the scheme is not vapid")) }
        var parameters: [String: String] = [:]
        for part in authorization.dropFirst(6).split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2 { parameters[String(pair[0])] = String(pair[1]) }
        }
        guard let jwt = parameters["t"], let k = parameters["k"] else { return .failure(.init("t= or k= missing")) }
        guard let keyBytes = Base64URL.decode(k), let key = try? P256.Signing.PublicKey(x963Representation: keyBytes)
        else { return .failure(.init("k is no P-256 public key")) }
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let claimBytes = Base64URL.decode(parts[1]),
            let signatureBytes = Base64URL.decode(parts[2])
        else { return .failure(.init("the JWT is not three base64url parts")) }
        guard let header = try? JSONDecoder().decode([String: String].self, from: headerBytes),
            header["alg"] == "ES256", header["typ"] == "JWT"
        else { return .failure(.init("the JWT header is not {typ: JWT, alg: ES256}")) }
        guard signatureBytes.count == 64,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            key.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { return .failure(.init("the ES256 signature does not verify against k")) }
        guard let claims = try? JSONDecoder().decode(VAPIDToken.Claims.self, from: claimBytes) else {
            return .failure(.init("the claims are not {aud, exp, sub}"))
        }
        guard claims.aud == audience else { return .failure(.init("aud \(claims.aud) is not \(audience)")) }
        let seconds = Int(now.timeIntervalSince1970)
        guard claims.exp > seconds else { return .failure(.init("exp is in the past")) }
        guard claims.exp <= seconds + 24 * 3600 else { return .failure(.init("exp is more than 24 hours away")) }
        guard claims.sub.hasPrefix("mailto:") || claims.sub.hasPrefix("https:") else {
            return .failure(.init("sub is neither mailto: nor https:"))
        }
        return .success(claims)
    }

}
