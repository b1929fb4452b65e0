import Foundation
import Hummingbird
import Logging
import MorningProofCore
import NIOCore

/// An error answer. Every error body is `{"error": "...", "code": "..."}`, and this is the one
/// place where errors become HTTP statuses.
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String, code: String = "bad_request") -> APIError {
        APIError(status: .badRequest, code: code, message: message)
    }

    /// 401 with `WWW-Authenticate: Bearer` (RFC 6750): no token was sent.
    static func unauthorized(_ message: String) -> APIError {
        APIError(status: .unauthorized, code: "unauthorized", message: message, headers: [.wwwAuthenticate: "Bearer"])
    }

}

extension APIError {
    /// The answer to any error a route or the router threw. Only a fault of the server itself is a
    /// 500, and it is logged; nothing a client can send should get there.
    init(_ error: any Error, logger: Logger) {
        switch error {
        case let error as APIError:
            self = error
        case let error as MorningProofError:
            self.init(error, logger: logger)
        case let error as any MorningProofErrorConvertible:
            // A store's, a photo's or a metrics file's own error, said in the one vocabulary.
            self.init(error.morningProofError, logger: logger)
        case let error as IOError where error.errnoCode == ECONNRESET || error.errnoCode == EPIPE:
            // The client hung up while its request was read: no one hears the answer, and it is
            // not the server's fault (nor an error line in its log for each such client).
            logger.debug("the client went away: \(error)")
            self = .badRequest("the connection closed before the request was read", code: "connection_closed")
        case is NIOTooManyBytesError:
            self.init(status: .contentTooLarge, code: "payload_too_large", message: "the request body is too large")
        case let error as HTTPError:
            self.init(
                status: error.status, code: Self.code(for: error.status),
                message: error.body ?? error.status.reasonPhrase)
        default:
            logger.error("unexpected error: \(String(reflecting: error))")
            self.init(status: .internalServerError, code: "internal", message: "the server failed; this is a bug")
        }
    }

    /// The one place where a kind of error becomes a status: its code is the error's stable word, or
    /// the kind's own; its message is in the API's words (JSON fields, requests).
    init(_ error: MorningProofError, logger: Logger) {
        let message = FieldWording.message(error)
        switch error.kind {
        case .usage, .dataError: self = .badRequest(message, code: error.code ?? "bad_request")
        case .unauthorized:
            // RFC 6750: a token was sent and is not valid, or a password was wrong.
            self.init(status: .unauthorized, code: error.code ?? "unauthorized", message: message)
            headers = [.wwwAuthenticate: error.code == "invalid_token" ? "Bearer error=\"invalid_token\"" : "Bearer"]
        case .forbidden: self.init(status: .forbidden, code: error.code ?? "forbidden", message: message)
        case .noInput, .notFound: self.init(status: .notFound, code: error.code ?? "not_found", message: message)
        case .conflict: self.init(status: .conflict, code: error.code ?? "conflict", message: message)
        case .negative, .refused:
            self.init(status: .unprocessableContent, code: error.code ?? "refused", message: message)
        case .tooManyRequests(let seconds):
            self.init(status: .tooManyRequests, code: error.code ?? "too_many_requests", message: message)
            headers = [.retryAfter: String(seconds)]
        case .ioError, .busy: self = .databaseUnavailable(message, logger: logger)
        }
    }

    /// 503: the database cannot be reached or stays busy. What it said goes to the log, not to the client.
    private static func databaseUnavailable(_ message: String, logger: Logger) -> APIError {
        logger.error("database: \(message)")
        return APIError(
            status: .serviceUnavailable, code: "database_unavailable", message: "the database is unavailable; try again"
        )
    }

    private static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not_found"
        case .contentTooLarge: "payload_too_large"
        case .badRequest: "bad_request"
        default: status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
        }
    }

    var response: Response {
        var response = JSONResponse.make(status, ["error": message, "code": code])
        response.headers.append(contentsOf: headers)
        return response
    }
}
