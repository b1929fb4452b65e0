import HTTPTypes
import Logging
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import Testing

@testable import MorningProofServer

/// The one place where errors become statuses: each kind of `MorningProofError` answers one status
/// with its code (the error's own stable word, else the kind's) and headers (docs/server.md), and a
/// lower layer's error answers as the kind it converts to.
@Suite struct ErrorStatusTests {
    typealias Kind = MorningProofError.Kind
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// Every kind, with the status and code it answers without a code of its own. A new kind fails
    /// to compile here until it has its row.
    static func documented(_ kind: Kind) -> (HTTPResponse.Status, code: String) {
        switch kind {
        case .usage, .dataError: (.badRequest, "bad_request")
        case .unauthorized: (.unauthorized, "unauthorized")
        case .forbidden: (.forbidden, "forbidden")
        case .noInput, .notFound: (.notFound, "not_found")
        case .conflict: (.conflict, "conflict")
        case .negative, .refused: (.unprocessableContent, "refused")
        case .tooManyRequests: (.tooManyRequests, "too_many_requests")
        case .ioError, .busy: (.serviceUnavailable, "database_unavailable")
        }
    }

    static let kinds: [Kind] = [
        .negative, .usage, .dataError, .noInput, .ioError, .busy, .unauthorized, .notFound, .conflict, .refused,
        .tooManyRequests(retryAfter: 7), .forbidden,
    ]

    @Test(arguments: kinds) func everyKindAnswersItsStatus(kind: Kind) {
        let (status, code) = Self.documented(kind)
        let plain = APIError(MorningProofError(kind, "what went wrong"), logger: logger)
        #expect(plain.status == status)
        #expect(plain.code == code)
        // A database out of reach or busy is said to the log, not to the client.
        #expect(
            plain.message
                == (status == .serviceUnavailable ? "the database is unavailable; try again" : "what went wrong"))
        // An error's own stable word is its code, under the same status (503's code is the server's).
        let coded = APIError(MorningProofError(kind, code: "its_own", "what went wrong"), logger: logger)
        #expect(coded.status == status)
        #expect(coded.code == (status == .serviceUnavailable ? "database_unavailable" : "its_own"))
    }

    @Test func headersSayWhenToComeBackAndHowToSignIn() {
        let soon = APIError(
            MorningProofError(.tooManyRequests(retryAfter: 900), code: "too_many_attempts", "later"), logger: logger)
        #expect(soon.headers[.retryAfter] == "900")
        let wrongPassword = MorningProofError(.unauthorized, code: "wrong_credentials", "wrong email or password")
        #expect(APIError(wrongPassword, logger: logger).headers[.wwwAuthenticate] == "Bearer")
        let invalid = APIError(TokenService.invalidToken, logger: logger)
        #expect(invalid.status == .unauthorized && invalid.code == "invalid_token")
        #expect(invalid.headers[.wwwAuthenticate] == "Bearer error=\"invalid_token\"")
        for kind in Self.kinds where kind != .unauthorized {
            #expect(APIError(MorningProofError(kind, "x"), logger: logger).headers[.wwwAuthenticate] == nil)
        }
    }

    @Test func noCheckinIsItsOwn404() {
        let answer = APIError(CheckinService.notSetUp, logger: logger)
        #expect(answer.status == .notFound && answer.code == "no_checkin")
        #expect(answer.message == "no check-in is set up yet: POST /api/checkin/setup first")
    }

    /// The store's error, as the kind it converts to: each code's status and code as before the kinds.
    @Test func storeErrorsAnswerAsTheirKinds() {
        let expected: [(StoreError.Code, HTTPResponse.Status, String)] = [
            (.notFound, .notFound, "not_found"), (.conflict, .conflict, "conflict"),
            (.ambiguous, .badRequest, "bad_request"), (.invalid, .badRequest, "bad_request"),
            (.badFile, .badRequest, "bad_request"), (.busy, .serviceUnavailable, "database_unavailable"),
            (.unavailable, .serviceUnavailable, "database_unavailable"),
        ]
        for (code, status, word) in expected {
            let answer = APIError(StoreError(code, value: "x", "the store says no"), logger: logger)
            #expect(answer.status == status && answer.code == word, "\(code)")
        }
        // No habits yet: the API says nothing of how the CLI adds one.
        let none = APIError(StoreError.noHabits(named: "Run"), logger: logger)
        #expect(none.message == "no habit named \"Run\"; there are no habits yet")
    }
}
