import Foundation
import HTTPTypes
import Hummingbird
import MorningProofCore
import MorningProofTestSupport
import TestFixtures
import Testing

@testable import MorningProofServer
import MorningProofStoreContract

/// The committed openapi.yaml as lines, and the block of lines under a key path.
struct SpecText {
    let lines: [Substring]

    init() throws {
        let url = Repository.url("openapi.yaml")
        lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The lines under `path`: each key found below (more indented than) the one before it.
    func block(_ path: [String]) -> [String] {
        var (range, indent) = (lines.indices, -1)
        for key in path {
            guard
                let start = range.first(where: { index in
                    let text = lines[index].drop { $0 == " " }
                    return (text == "\(key):" || text.hasPrefix("\(key): ")) && Self.indent(lines[index]) > indent
                })
            else { return [] }
            indent = Self.indent(lines[start])
            let end =
                range[(start + 1)...].first { !lines[$0].allSatisfy { $0 == " " } && Self.indent(lines[$0]) <= indent }
                ?? range.upperBound
            range = (start + 1)..<end
        }
        return lines[range].map { $0.trimmingCharacters(in: .whitespaces) }
    }

    private static func indent(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }
}

/// What schemathesis found between the spec and the server (issue 23, finding 9), and browsers'
/// multipart boundaries (finding 7): each case as a plain test.
@Suite("Request bodies as the spec says them")
struct BodySpecTests {
    let spec: SpecText

    init() throws { spec = try SpecText() }

    @Test func aHabitChangeThatIsNotAnObjectIs400AndTheSpecSaysObject() async throws {
        #expect(spec.block(["/api/habits/{id}", "patch", "schema"]).first == "type: object")
        #expect(spec.block(["/api/habits", "post", "schema"]).first == "type: object")
        try await TestServer.run(on: .sqlite) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let created = try await api.send(.post, "/api/habits", token: token, json: #"{"name": "Read"}"#)
            let id = try #require(created.json["id"] as? Int)
            let zero = try await api.send(.patch, "/api/habits/\(id)", token: token, json: "0")
            #expect(zero.status == .badRequest && zero.errorCode == "invalid_json")
        }
    }

    @Test func anEmptyTimeZoneAtSignUpIs400AndTheSpecSaysSo() async throws {
        #expect(spec.block(["TimeZone"]).contains("minLength: 1"))
        try await TestServer.run(on: .sqlite) { api in
            let empty = try await api.send(
                .post, "/api/auth/signup",
                json: #"{"email": "ada@example.com", "password": "correct horse", "timezone": ""}"#)
            #expect(empty.status == .badRequest, "\(empty.body)")
        }
    }

    @Test func aScheduleNumberPastTheSpecsMaximumIs400() async throws {
        for field in ["every", "times", "within"] {
            let maximum = spec.block(["HabitDetails", field]).first { $0.hasPrefix("maximum: ") }
            #expect(maximum == "maximum: \(Schedule.maxDays)", "\(field)")
        }
        try await TestServer.run(on: .sqlite) { api in
            let token = try await api.signUp("ada@example.com", timezone: "UTC")
            let largest = try await api.send(
                .post, "/api/habits", token: token, json: #"{"name": "Largest", "every": 365}"#)
            #expect(largest.status == .created, "\(largest.body)")
            for every in [366, 510_510] {
                let past = try await api.send(
                    .post, "/api/habits", token: token, json: #"{"name": "Past", "every": \#(every)}"#)
                #expect(past.status == .badRequest && past.errorMessage.contains("1 to 365"), "\(past.body)")
            }
        }
    }

    @Test func aFormWithoutAFilePartIs400AndTheSpecRequiresThePhoto() async throws {
        #expect(spec.block(["/api/habits/{id}/proof", "multipart/form-data", "schema"]).contains("required: [photo]"))
        try await TestServer.run(on: .sqlite) { api in
            let (token, id) = try await ProofRouteTests().photoHabit(api)
            let form = "--X\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nmorning\r\n--X--\r\n"
            let reply = try await api.upload(
                "/api/habits/\(id)/proof", token: token, at: "2026-11-18T08:00:00Z",
                type: "multipart/form-data; boundary=X", body: Data(form.utf8))
            #expect(reply.status == .badRequest && reply.errorMessage.contains("no photo"), "\(reply.body)")
        }
    }

    @Test func startingTheDayOverWithoutTheClockHeaderIs401BeforeIts404() async throws {
        try await TestServer.with(.sqlite) { server in
            var server = server
            server.configuration.allowClockHeader = false
            try await server.run { api in
                let stranger = try await api.send(.delete, "/api/checkin/today")
                #expect(stranger.status == .unauthorized && stranger.errorCode == "unauthorized")
                let token = try await api.signUp("ada@example.com", timezone: "UTC")
                let signedIn = try await api.send(.delete, "/api/checkin/today", token: token)
                #expect(signedIn.status == .notFound && signedIn.errorCode == "not_found")
                // Said as any unknown path is: a client is not told the server's options.
                #expect(signedIn.errorMessage == "no such path: /api/checkin/today")
            }
        }
    }

    /// Seed 4242 on PostgreSQL: an email with a NUL was a 503, as the database refused the query.
    @Test(arguments: Engine.available) func aSignInWithANulInItsEmailIs401(engine: Engine) async throws {
        try await TestServer.run(on: engine) { api in
            _ = try await api.signUp("ada@example.com")
            let reply = try await api.send(
                .post, "/api/auth/login", json: #"{"email": "ada\u0000@example.com", "password": "correct horse"}"#)
            #expect(reply.status == .unauthorized && reply.errorCode == "wrong_credentials", "\(reply.body)")
        }
    }

    @Test func aBrowsersMixedCaseBoundaryIsKeptAsSent() async throws {
        try await TestServer.run(on: .sqlite) { api in
            let (token, id) = try await ProofRouteTests().photoHabit(api)
            let boundary = "----WebKitFormBoundaryAbC"
            var body = Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"bed.jpg\"".utf8)
            body += Data("\r\nContent-Type: image/jpeg\r\n\r\n".utf8) + (try Scenes.bytes("made-1.jpg"))
            body += Data("\r\n--\(boundary)--\r\n".utf8)
            let reply = try await api.upload(
                "/api/habits/\(id)/proof", token: token, at: "2026-11-18T08:00:00Z",
                type: "Multipart/Form-Data; Boundary=\"\(boundary)\"", body: body)
            #expect(reply.status == .created, "\(reply.body)")
        }
    }

    // MARK: - The form's parse, bounded

    static func form(_ boundary: String, _ parts: [String], preamble: String = "") -> ByteBuffer {
        ByteBuffer(string: preamble + parts.map { "--\(boundary)\r\n\($0)\r\n" }.joined() + "--\(boundary)--\r\n")
    }

    @Test func theFirstFilePartIsFoundAfterAPreambleAndOtherFields() throws {
        let parser = try MultipartForm(
            contentType: MediaType("multipart/form-data; boundary=\"a b'c\""), carrying: .photo)
        let body = Self.form(
            "a b'c",
            [
                "Content-Disposition: form-data; name=\"note\"\r\n\r\nhello",
                "Content-Disposition: form-data; name=\"photo\"; filename=\"x.jpg\"\r\n\r\nPHOTO\r\nBYTES",
                "Content-Disposition: form-data; name=\"other\"; filename=\"y.jpg\"\r\n\r\nNOT THIS",
            ], preamble: "ignored\r\n")
        #expect(try parser.file(in: body) == Data("PHOTO\r\nBYTES".utf8))
    }

    @Test func aFormPastItsBoundsIsRefused() throws {
        let parser = try MultipartForm(contentType: MediaType("multipart/form-data; boundary=B"), carrying: .photo)
        let seventeen = Self.form("B", Array(repeating: "\r\n", count: 16) + ["Content-Type: image/png\r\n\r\nP"])
        #expect(throws: APIError.self) { try parser.file(in: seventeen) }
        let sixteen = Self.form("B", Array(repeating: "\r\n", count: 15) + ["Content-Type: image/png\r\n\r\nP"])
        #expect(try parser.file(in: sixteen) == Data("P".utf8))
        let longHeader = Self.form("B", ["X-Long: \(String(repeating: "h", count: 9000))\r\n\r\nP"])
        #expect(throws: APIError.self) { try parser.file(in: longHeader) }
        let unclosed = ByteBuffer(string: "--B\r\nContent-Type: image/png\r\n\r\nPNG without its end")
        #expect(throws: APIError.self) { try parser.file(in: unclosed) }
        for bad in ["multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=a\u{7}b"] {
            #expect(throws: APIError.self, "\(bad)") {
                try MultipartForm(contentType: MediaType(bad), carrying: .photo)
            }
        }
    }
}
