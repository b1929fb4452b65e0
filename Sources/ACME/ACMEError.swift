import Foundation
import MorningProofCore

/// What can go wrong while getting a certificate from an ACME CA, with the URL or domain concerned.
public enum ACMEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The CA's directory (or another of its URLs) could not be reached or did not answer in time.
    case unreachable(url: String, reason: String)
    /// The CA answered something that is not ACME (not JSON, a missing field or header).
    case unexpectedAnswer(url: String, reason: String)
    /// The CA refused a request with an RFC 8555 problem (`urn:ietf:params:acme:error:TYPE`).
    case refused(url: String, problem: ACMEProblem)
    /// An authorization or order ended `invalid`: the CA could not validate the domain.
    case validationFailed(domain: String, detail: String)
    /// An authorization or order stayed pending or processing past the time allowed.
    case timedOut(url: String)

    public var description: String {
        switch self {
        case .unreachable(let url, let reason):
            "cannot reach the ACME directory at \(url): \(reason)"
        case .unexpectedAnswer(let url, let reason):
            "the ACME CA's answer at \(url) is not one ACME defines: \(reason)"
        case .refused(let url, let problem):
            "the ACME CA refused \(url): \(problem.summary)"
        case .validationFailed(let domain, let detail):
            "the ACME CA could not validate \(domain) (is port 80 of \(domain) this server?): \(detail)"
        case .timedOut(let url):
            "the ACME CA did not finish \(url) in time"
        }
    }
}

extension ACMEError: MorningProofErrorConvertible {
    /// A CA that cannot be reached is an I/O failure (74); a refused order or domain is a usage
    /// error (64): what the person asked for (the domain, the email) is what the CA refuses.
    public var morningProofError: MorningProofError {
        switch self {
        case .unreachable, .unexpectedAnswer, .timedOut: MorningProofError(.ioError, description)
        case .refused, .validationFailed: MorningProofError(.usage, description)
        }
    }
}

/// An RFC 7807 problem document as an ACME CA sends it.
public struct ACMEProblem: Codable, Sendable, Equatable {
    public var type: String
    public var detail: String?
    public var status: Int?

    public init(type: String, detail: String? = nil, status: Int? = nil) {
        self.type = type
        self.detail = detail
        self.status = status
    }

    /// The problem as one line: its ACME type's last word, and its detail.
    public var summary: String {
        let kind = type.split(separator: ":").last.map(String.init) ?? type
        return detail.map { "\(kind): \($0)" } ?? kind
    }

    /// The CA refused the request's nonce: the request is sent again with a fresh one (RFC 8555 §6.5).
    public var isBadNonce: Bool { type == "urn:ietf:params:acme:error:badNonce" }
}
