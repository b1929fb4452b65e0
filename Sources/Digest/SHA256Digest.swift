import CLibCrypto
import Foundation

/// SHA-256 through the system's libcrypto (OpenSSL): the fingerprint a photo proof rests on, and the
/// only form in which an API token is stored.
/// libcrypto instead of swift-crypto: the same digest without compiling BoringSSL on a first build.
public enum SHA256Digest {
    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        let ok = digest.withUnsafeMutableBufferPointer { out in
            // A null base pointer is fine for zero bytes; nothing is read.
            mp_sha256(bytes.baseAddress, bytes.count, out.baseAddress)
        }
        precondition(ok == 1, "libcrypto could not compute a SHA-256 digest")
        return digest.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    /// The digest of `data` as 64 lowercase hex digits.
    public static func hex(_ data: Data) -> String {
        data.withUnsafeBytes { hex($0) }
    }
}
