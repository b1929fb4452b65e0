import CSystemZlib

/// Gzip (RFC 1952) through the system's zlib: the web app's files are compressed once, when the
/// server first serves them, and sent compressed to every browser that accepts gzip.
enum Gzip {
    /// `bytes` as a gzip stream at zlib's best compression, or nil if zlib refuses (it does not for
    /// any input; nil only on a failed allocation).
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
        guard
            deflateInit2_(
                &stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// Whether a request's `Accept-Encoding` field lines (all of them, as one list) accept gzip
    /// (RFC 9110 §12.5.3): `gzip` (or `x-gzip`) with a weight above 0; when neither is named, `*` with
    /// one. A coding named with `q=0` is refused even beside a `*`; a weight that is not a number is 0.
    static func isAccepted(by acceptEncoding: [String]) -> Bool {
        var named: Double?
        var wildcard: Double?
        for item in acceptEncoding.joined(separator: ",").split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first else { continue }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.map { Double($0.dropFirst(2)) ?? 0 } ?? 1
            let weight = q.isFinite ? q : 0
            if coding == "gzip" || coding == "x-gzip" {
                named = max(named ?? weight, weight)
            } else if coding == "*" {
                wildcard = max(wildcard ?? weight, weight)
            }
        }
        guard let weight = named ?? wildcard else { return false }
        return weight > 0
    }
}
