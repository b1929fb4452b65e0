import Testing
import WebAuthn

/// The code that seals passkey challenges: HMAC-SHA256 as RFC 4231 gives it.
@Suite struct ChallengeCodeTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func codesAreRFC4231sAndAreCheckedByEveryByte() {
        let key = [UInt8](repeating: 0x0b, count: 20)
        let code = ChallengeCode.code(key: key, message: Array("Hi There".utf8))
        #expect(Self.hex(code) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        // A key longer than the block is hashed first (test case 6).
        #expect(
            Self.hex(
                ChallengeCode.code(
                    key: [UInt8](repeating: 0xaa, count: 131),
                    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(ChallengeCode.isValid(code, key: key, message: Array("Hi There".utf8)))
        for index in code.indices {
            var changed = code
            changed[index] ^= 1
            #expect(!ChallengeCode.isValid(changed, key: key, message: Array("Hi There".utf8)), "byte \(index)")
        }
        #expect(!ChallengeCode.isValid(Array(code.dropLast()), key: key, message: Array("Hi There".utf8)))
    }
}
