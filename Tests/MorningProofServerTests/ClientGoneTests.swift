import Foundation
import Logging
import MorningProofCore
import NIOCore
import Testing

@testable import MorningProofServer

/// A client that hangs up while its request is read (found by a storm of writes cut off mid-body).
@Suite struct ClientGoneTests {
    @Test(arguments: [ECONNRESET, EPIPE]) func aResetWhileReadingIsTheClientsNotA500(code: Int32) {
        let lines = Locked<[String]>([])
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        let error = APIError(IOError(errnoCode: code, reason: "read(descriptor:pointer:size:)"), logger: logger)
        #expect(error.status == .badRequest)
        #expect(error.code == "connection_closed")
        // Was "unexpected error ... this is a bug" at level error, one line per client that hung up.
        #expect(lines.withLock { $0 }.allSatisfy { !$0.hasPrefix("error") })
    }
}
