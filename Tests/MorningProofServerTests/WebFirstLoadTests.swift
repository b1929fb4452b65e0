import Foundation
import HTTPTypes
import MorningProofTestSupport
import Testing

/// The web app's first load on a phone (issue 40): what the page loads before Today shows, gzipped by
/// the server as a browser gets it, stays under 50 KB; the other screens come later with `import()`.
@Suite struct WebFirstLoadTests {
    /// The paths `text` loads at once: the page's stylesheet, module script and preloads, or a
    /// module's static imports (`import … from "/x.js"`, `import "/x.js"`; not `import("/x.js")`).
    static func loadedPaths(_ text: String) -> [String] {
        let patterns = [
            #"<link rel="stylesheet" href="(/[^"]+)">"#, #"<script type="module" src="(/[^"]+)">"#,
            #"<link rel="modulepreload" href="(/[^"]+)">"#, #"(?m)^import (?:[^;(]*? from )?"(/[^"]+)";"#,
        ]
        return patterns.flatMap { pattern -> [String] in
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
            let range = NSRange(text.startIndex..., in: text)
            return regex.matches(in: text, range: range).compactMap { match in
                Range(match.range(at: 1), in: text).map { String(text[$0]) }
            }
        }
    }

    /// The page and everything it loads at once, by path, with the bytes the server sends for gzip.
    static func firstLoad(_ api: TestAPI) async throws -> [String: (zipped: Int, text: String)] {
        var loaded: [String: (zipped: Int, text: String)] = [:]
        var next = ["/"]
        while let path = next.popLast() {
            guard loaded[path] == nil else { continue }
            let zipped = try await api.send(.get, path, headers: [.acceptEncoding: "gzip"])
            #expect(zipped.status == .ok && zipped.headers[.contentEncoding] == "gzip", "\(path)")
            let text = try await api.send(.get, path).body
            loaded[path] = (zipped.bytes.count, text)
            next += loadedPaths(text)
        }
        return loaded
    }

    @Test func theFirstLoadIsUnderFiftyKilobytesGzipped() async throws {
        try await TestServer.run(on: .sqlite) { api in
            let loaded = try await Self.firstLoad(api)
            let total = loaded.values.reduce(0) { $0 + $1.zipped }
            let list = loaded.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.zipped)" }.joined(separator: ", ")
            #expect(total < 50_000, "the first load is \(total) B gzipped: \(list)")
            // Today is among it; the other screens are not (they come with import()).
            #expect(loaded["/today.js"] != nil && loaded["/app.js"] != nil && loaded["/style.css"] != nil)
            for later in ["/settings.js", "/passkeys.js", "/shield.js", "/firstrun.js", "/history.js", "/habits.js"] {
                #expect(loaded[later] == nil, "\(later) is in the first load")
            }
        }
    }

    @Test func everyModuleOfTheFirstLoadIsPreloadedAndTheOthersAreCachedForOffline() async throws {
        try await TestServer.run(on: .sqlite) { api in
            let loaded = try await Self.firstLoad(api)
            let page = try #require(loaded["/"]).text
            // Each module the first load imports is fetched with the page, not one round trip after app.js.
            for path in loaded.keys where path.hasSuffix(".js") && path != "/app.js" {
                #expect(page.contains(#"<link rel="modulepreload" href="\#(path)">"#), "\(path) is not preloaded")
            }
            // Every module loaded later with import() is one the service worker caches, and the
            // policy lets the page load it (scripts from its own origin).
            let worker = try await api.send(.get, "/sw.js").body
            let policy = try await api.send(.get, "/").headers[.contentSecurityPolicy] ?? ""
            #expect(policy.contains("script-src 'self';"))
            let screens = try #require(loaded["/app.js"]).text + (loaded["/screens.js"]?.text ?? "")
            let lazy = try NSRegularExpression(pattern: #"import\("(/[^"]+)"\)"#)
            let imported = lazy.matches(in: screens, range: NSRange(screens.startIndex..., in: screens)).compactMap {
                Range($0.range(at: 1), in: screens).map { String(screens[$0]) }
            }
            #expect(imported.contains("/settings.js"))
            for path in imported {
                #expect(worker.contains("\"\(path)\""), "\(path) is not in the service worker's shell")
                #expect(try await api.send(.get, path).status == .ok, "\(path)")
            }
        }
    }
}
