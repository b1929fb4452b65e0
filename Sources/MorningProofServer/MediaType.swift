import Foundation

/// A Content-Type: its media type in lower case (it is case-insensitive) and its parameters, the
/// names in lower case and the values as sent (a multipart boundary is case-sensitive).
struct MediaType: Sendable {
    let type: String
    let parameters: [String: String]

    init(_ header: String) {
        let fields = header.split(separator: ";", omittingEmptySubsequences: false)
        type = fields.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        var parameters: [String: String] = [:]
        for field in fields.dropFirst() {
            let pair = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            var value = pair[1]
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            let name = pair[0].lowercased()
            if parameters[name] == nil { parameters[name] = value }
        }
        self.parameters = parameters
    }
}

extension MediaType {
    /// The Content-Types a photo is taken as: a phone's formats (JPEG, PNG, an iPhone's HEIC, WebP), bytes
    /// whose type the browser did not know (a `.heic` file on a desktop), and a form. The decoder reads
    /// the format from the photo's first bytes, whatever the type says.
    static let photoTypes = [
        "image/jpeg", "image/png", "image/heic", "image/heif", "image/webp", "application/octet-stream",
        "multipart/form-data",
    ]
}
