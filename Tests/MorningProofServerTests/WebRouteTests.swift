import Foundation
import HTTPTypes
import MorningProofTestSupport
import Testing

@Suite("The web app's files: types, ETags, no inline script")
struct WebRouteTests {
    @Test(arguments: Engine.available) func theShellIsServedWithItsTypeTagAndPolicy(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
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

    @Test(arguments: Engine.available) func healthSaysWhetherTheClockHeaderIsHonoured(engine: Engine) async throws {
        try await TestServer.with(engine) { server in
            var server = server
            try await server.run { api throws in
                #expect(try await api.send(.get, "/health").json["clockHeader"] as? Bool == true)
            }
            server.configuration.allowClockHeader = false
            try await server.run { api throws in
                #expect(try await api.send(.get, "/health").json["clockHeader"] as? Bool == false)
            }
        }
    }
}
