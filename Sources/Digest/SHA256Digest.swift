import CLibCrypto
import Foundation

/// SHA-256 through the system's libcrypto (OpenSSL, loaded on first use): the fingerprint a photo
/// proof rests on, and the only form in which an API token is stored.
/// libcrypto instead of swift-crypto: the same digest without compiling BoringSSL on a first build.
public enum SHA256Digest {
    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var message = [CChar](repeating: 0, count: 320)
        let status = mpcrypto_sha256(bytes.baseAddress, bytes.count, &digest, &message, message.count)
        // It fails only when libcrypto (a package dependency, Debian's libssl3) is missing or out of memory.
        precondition(status == 0, String(cString: message))
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
