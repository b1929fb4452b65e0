import Foundation
import HTTPTypes
import Testing

@Suite("The web app's files: types, ETags, no inline script")
struct WebRouteTests {
    @Test func theShellIsServedWithItsTypeTagAndPolicy() async throws {
        try await TestServer().run { api in
            for (path, type) in [
                ("/", "text/html"), ("/app.js", "text/javascript"), ("/style.css", "text/css"),
                ("/sw.js", "text/javascript"), ("/manifest.webmanifest", "application/manifest+json"),
                ("/icon.svg", "image/svg+xml"),
            ] {
                let reply = try await api.send(.get, path)
                #expect(reply.status == .ok, "\(path)")
                #expect(reply.headers[.contentType]?.hasPrefix(type) == true, "\(path)")
                #expect(reply.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
                #expect(reply.headers[.cacheControl] == "no-cache")
                let tag = try #require(reply.headers[.eTag])
                let again = try await api.send(.get, path, headers: [.ifNoneMatch: tag])
                #expect(again.status == .notModified && again.body.isEmpty, "\(path)")
            }
            let page = try await api.send(.get, "/")
            // Every script is a file of the app's own: nothing inline for the policy to forbid.
            #expect(!page.body.contains("<script>") && page.body.contains(#"<script type="module" src="/app.js">"#))
            #expect(page.body.contains("capture") == false)  // the camera input is made by app.js
            #expect(try await api.send(.get, "/api/nothing").errorCode == "not_found")
            #expect(try await api.send(.post, "/").status == .methodNotAllowed)
        }
    }

    @Test func healthSaysWhetherTheClockHeaderIsHonoured() async throws {
        var server = try TestServer()
        try await server.run { api throws in
            #expect(try await api.send(.get, "/health").json["clockHeader"] as? Bool == true)
        }
        server.configuration.allowClockHeader = false
        try await server.run { api throws in
            #expect(try await api.send(.get, "/health").json["clockHeader"] as? Bool == false)
        }
    }
}
