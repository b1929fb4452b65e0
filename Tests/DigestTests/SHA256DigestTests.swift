import Digest
import Foundation
import Testing

@Suite("SHA-256 (photo proofs, API tokens) matches the standard's test vectors")
struct SHA256DigestTests {
    @Test(
        "FIPS 180-2 vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ])
    func vector(input: String, expected: String) {
        #expect(SHA256Digest.hex(Data(input.utf8)) == expected)
    }

    @Test("a million 'a's, hashed in one call")
    func millionA() {
        let data = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256Digest.hex(data) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
