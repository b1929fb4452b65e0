import Foundation
import HTTPTypes
import MorningProofTestSupport
import Testing

@Suite("The web app's files: types, ETags, no inline script")
struct WebRouteTests {
    @Test(arguments: Engine.available) func theShellIsServedWithItsTypeTagAndPolicy(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            // The policy on what runs under a policy of its own (a page, a worker, an SVG opened alone); a
            // module or a stylesheet runs under its page's.
            for (path, type, policed) in [
                ("/", "text/html", true), ("/app.js", "text/javascript", false), ("/style.css", "text/css", false),
                ("/sw.js", "text/javascript", true), ("/manifest.webmanifest", "application/manifest+json", true),
                ("/icon.svg", "image/svg+xml", true),
            ] {
                let reply = try await api.send(.get, path)
                #expect(reply.status == .ok, "\(path)")
                #expect(reply.headers[.contentType]?.hasPrefix(type) == true, "\(path)")
                let policy = reply.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("script-src 'self'") == policed, "\(path)")
                #expect(reply.headers[.xContentTypeOptions] == "nosniff", "\(path)")
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

    @Test func textIsGzippedForABrowserThatAcceptsItAndPlainForOneThatDoesNot() async throws {
        try await TestServer.run(on: .sqlite) { api in
            for path in ["/", "/app.js", "/style.css", "/sw.js", "/manifest.webmanifest", "/icon.svg"] {
                let plain = try await api.send(.get, path)
                #expect(plain.headers[.contentEncoding] == nil && plain.headers[.vary] == "Accept-Encoding", "\(path)")
                let zipped = try await api.send(.get, path, headers: [.acceptEncoding: "gzip, deflate, br"])
                #expect(zipped.status == .ok && zipped.headers[.contentEncoding] == "gzip", "\(path)")
                #expect(zipped.bytes.count < plain.bytes.count, "\(path)")
                #expect(try Self.gunzip(zipped.bytes) == plain.bytes, "\(path)")
                // Each representation has its own tag, and each revalidates with it.
                let tag = try #require(zipped.headers[.eTag])
                #expect(tag != plain.headers[.eTag])
                let again = try await api.send(.get, path, headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag])
                #expect(again.status == .notModified, "\(path)")
                let refused = try await api.send(.get, path, headers: [.acceptEncoding: "gzip;q=0, identity"])
                #expect(refused.headers[.contentEncoding] == nil && refused.bytes == plain.bytes, "\(path)")
            }
            // A PNG is compressed already: sent as it is.
            let icon = try await api.send(.get, "/icon-192.png", headers: [.acceptEncoding: "gzip"])
            #expect(icon.status == .ok && icon.headers[.contentEncoding] == nil && icon.headers[.vary] == nil)
        }
    }

    /// `bytes` decompressed by the system's `gzip -dc`: a decoder that is not the server's.
    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gunzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.gz")
        try Data(bytes).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("gzip -dc exited \(process.terminationStatus)") }
        return [UInt8](data)
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

    /// The files of `Sources/MorningProofServer/Web`, which Package.swift embeds as a folder.
    static let webFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Sources/MorningProofServer/Web")

    @Test func everyFileOfTheWebFolderIsServedAndTheServiceWorkerCachesTheOthers() async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.webFolder.path).sorted()
        #expect(names.contains("sw.js"))
        try await TestServer.run(on: .sqlite) { api in
            let paths = names.map { $0 == "index.html" ? "/" : "/\($0)" }
            for path in paths {
                #expect(try await api.send(.get, path).status == .ok, "\(path) is in Web/ but not served")
            }
            let worker = try await api.send(.get, "/sw.js").body
            let shell = paths.filter { $0 != "/sw.js" }.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
            #expect(worker.contains("const SHELL = [\(shell)];"), "\(worker)")
            // The modules of the first load are preloaded with the page: WebFirstLoadTests.
            #expect(!worker.contains("APP_FILES"))
        }
    }
}
