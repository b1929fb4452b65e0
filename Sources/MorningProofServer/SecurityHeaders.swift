import HTTPTypes

/// The security headers whose presence depends on how the request arrived.
enum SecurityHeaders {
    static let strictTransportSecurity = HTTPField.Name("Strict-Transport-Security")!

    /// `Strict-Transport-Security`'s value for a request that came over https (the server's own
    /// TLS, or a trusted proxy's word), else nil: over plain http a browser ignores it, and it
    /// must not promise https for a server that has none. A year; subdomains are not ours to bind.
    static func strictTransport(isHTTPS: Bool) -> String? {
        isHTTPS ? "max-age=31536000" : nil
    }
}
