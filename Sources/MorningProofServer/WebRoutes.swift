import HTTPTypes
import Hummingbird
import MorningProofCore
import NIOCore

/// The web app's files (Sources/MorningProofServer/Web, compiled into the binary): served with their
/// content type, gzipped to a browser that accepts it (text files, compressed once), a strong ETag
/// per representation (304 for `If-None-Match`), `Cache-Control: no-cache` so that a phone always
/// revalidates, and a Content-Security-Policy that forbids inline script and any other origin on what
/// a browser runs under a policy of its own: the page, the service worker, the SVG icon, the manifest.
enum WebRoutes {
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let etag: String
        /// The bytes gzipped and their tag, for text that gzip makes smaller; nil for images.
        let gzipped: (bytes: [UInt8], etag: String)?
        /// Whether the answer carries the Content-Security-Policy. A module or a stylesheet runs under
        /// its page's policy and ignores one of its own (and a browser that opens it alone shows it as
        /// text: `nosniff`), so it goes without: some 290 bytes less on each of a phone's first load's
        /// seventeen modules. A worker takes the policy its own script came with: sw.js has it.
        let policed: Bool

        init(_ bytes: [UInt8], _ contentType: String, policed: Bool? = nil) {
            self.bytes = bytes
            self.contentType = contentType
            self.policed = policed ?? !(contentType.hasPrefix("text/javascript") || contentType.hasPrefix("text/css"))
            let fingerprint = WebRoutes.fingerprint(bytes)
            etag = "\"\(fingerprint)\""
            if !contentType.hasPrefix("image/png"), let compressed = Gzip.compress(bytes),
                compressed.count < bytes.count
            {
                gzipped = (compressed, "\"\(fingerprint)-gzip\"")
            } else {
                gzipped = nil
            }
        }
    }

    /// The web app's files by path: the one list of them. Package.swift embeds the whole `Web` folder,
    /// and `/sw.js` is served with the other paths filled in as the shell it caches for offline use.
    static let files: [String: File] = {
        var files: [String: File] = [
            "/": File(PackageResources.index_html, "text/html; charset=utf-8"),
            "/app.js": File(PackageResources.app_js, "text/javascript; charset=utf-8"),
            "/healthdata.js": File(PackageResources.healthdata_js, "text/javascript; charset=utf-8"),
            "/notifications.js": File(PackageResources.notifications_js, "text/javascript; charset=utf-8"),
            "/style.css": File(PackageResources.style_css, "text/css; charset=utf-8"),
            "/manifest.webmanifest": File(PackageResources.manifest_webmanifest, "application/manifest+json"),
            "/icon.svg": File(PackageResources.icon_svg, "image/svg+xml"),
            "/icon-192.png": File(PackageResources.icon_192_png, "image/png"),
            "/icon-512.png": File(PackageResources.icon_512_png, "image/png"),
            "/icon-maskable-512.png": File(PackageResources.icon_maskable_512_png, "image/png"),
            "/apple-touch-icon.png": File(PackageResources.apple_touch_icon_png, "image/png"),
            "/habits.js": File(PackageResources.habits_js, "text/javascript; charset=utf-8"),
            "/references.js": File(PackageResources.references_js, "text/javascript; charset=utf-8"),
            "/today.js": File(PackageResources.today_js, "text/javascript; charset=utf-8"),
            "/excuses.js": File(PackageResources.excuses_js, "text/javascript; charset=utf-8"),
            "/install.js": File(PackageResources.install_js, "text/javascript; charset=utf-8"),
            "/history.js": File(PackageResources.history_js, "text/javascript; charset=utf-8"),
            "/offline.js": File(PackageResources.offline_js, "text/javascript; charset=utf-8"),
            "/sync.js": File(PackageResources.sync_js, "text/javascript; charset=utf-8"),
            "/clock.js": File(PackageResources.clock_js, "text/javascript; charset=utf-8"),
            "/account.js": File(PackageResources.account_js, "text/javascript; charset=utf-8"),
            "/settings.js": File(PackageResources.settings_js, "text/javascript; charset=utf-8"),
            "/firstrun.js": File(PackageResources.firstrun_js, "text/javascript; charset=utf-8"),
            "/shield.js": File(PackageResources.shield_js, "text/javascript; charset=utf-8"),
            "/shieldsettings.js": File(PackageResources.shieldsettings_js, "text/javascript; charset=utf-8"),
            "/passkeys.js": File(PackageResources.passkeys_js, "text/javascript; charset=utf-8"),
            "/datacare.js": File(PackageResources.datacare_js, "text/javascript; charset=utf-8"),
            "/screens.js": File(PackageResources.screens_js, "text/javascript; charset=utf-8"),
            "/api.js": File(PackageResources.api_js, "text/javascript; charset=utf-8"),
            "/toast.js": File(PackageResources.toast_js, "text/javascript; charset=utf-8"),
            "/draw.js": File(PackageResources.draw_js, "text/javascript; charset=utf-8"),
            "/zoneline.js": File(PackageResources.zoneline_js, "text/javascript; charset=utf-8"),
            "/question.js": File(PackageResources.question_js, "text/javascript; charset=utf-8"),
            "/signin.js": File(PackageResources.signin_js, "text/javascript; charset=utf-8"),
            "/holdcheck.js": File(PackageResources.holdcheck_js, "text/javascript; charset=utf-8"),
            "/photoproof.js": File(PackageResources.photoproof_js, "text/javascript; charset=utf-8"),
        ]
        let version = fingerprint(files.sorted { $0.key < $1.key }.flatMap { Array($0.key.utf8) + $0.value.bytes })
        files["/sw.js"] = File(
            serviceWorker(caching: files.keys.sorted(), version: version), "text/javascript; charset=utf-8",
            policed: true)
        return files
    }()

    /// `sw.js` with `paths` in place of its `/* APP_FILES */` marker, as JSON strings, and `version` (a
    /// fingerprint of the files) in place of `/* APP_VERSION */`: a changed file changes the worker's
    /// bytes, so that the browser installs it, with a cache of its own, on the next open.
    static func serviceWorker(caching paths: [String], version: String) -> [UInt8] {
        let list = paths.map { "\"\($0)\"" }.joined(separator: ", ")
        let script = String(decoding: PackageResources.sw_js, as: UTF8.self)
        return Array(
            script.replacingOccurrences(of: "/* APP_FILES */", with: list)
                .replacingOccurrences(of: "/* APP_VERSION */", with: version).utf8)
    }

    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
        + "manifest-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        + "frame-ancestors 'none'"

    static func add(to table: inout RouteTable) {
        // /shield?from=HOST (issue 42), where a shielded site or a phone automation sends a person, is
        // the app's page: app.js shows the shield there.
        let shield = files["/"].map { [(key: "/shield", value: $0)] } ?? []
        for (path, file) in files.sorted(by: { $0.key < $1.key }) + shield {
            table.add(.get, path) { request, _ in
                response(
                    file, ifNoneMatch: request.headers[values: .ifNoneMatch].joined(separator: ","),
                    gzip: Gzip.isAccepted(by: request.headers[values: .acceptEncoding]))
            }
        }
    }

    static func response(_ file: File, ifNoneMatch: String?, gzip: Bool = false) -> Response {
        let (bytes, etag) = gzip ? file.gzipped ?? (file.bytes, file.etag) : (file.bytes, file.etag)
        var headers: HTTPFields = [
            .eTag: etag, .cacheControl: "no-cache",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("Referrer-Policy")!: "no-referrer",
        ]
        if file.policed { headers[.contentSecurityPolicy] = contentSecurityPolicy }
        if file.gzipped != nil { headers[.vary] = "Accept-Encoding" }
        // Weak comparison (RFC 9110 §13.1.2): `W/"tag"`, as a proxy that weakened the tag sends it, matches.
        let tags: [String] =
            ifNoneMatch?.split(separator: ",").map { item -> String in
                let tag = item.trimmingCharacters(in: .whitespaces)
                return tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
            } ?? []
        if tags.contains(etag) || tags.contains("*") { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = file.contentType
        if bytes.count < file.bytes.count { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// FNV-1a over the bytes, in hex: the same file always has the same tag, a changed file another.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        String(FNV1a.hash(bytes), radix: 16) + "-" + String(bytes.count, radix: 16)
    }
}
