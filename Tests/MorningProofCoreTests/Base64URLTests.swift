import Foundation
import Testing

@testable import MorningProofCore

@Suite struct Base64URLTests {
    @Test func roundTripsWithoutPadding() {
        for length in 0..<40 {
            let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) })
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
        }
    }

    @Test func refusesWhatIsNotBase64URL() {
        #expect(Base64URL.decode("ab+c") == nil)
        #expect(Base64URL.decode("ab/c") == nil)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab c") == nil)
        #expect(Base64URL.decode("_-8") == Data([0xFF, 0xEF]))
    }
}
