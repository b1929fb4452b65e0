import Foundation
import NIOCore
import Testing

@testable import MorningProofServer

/// The one form parser of both uploads, as `POST /api/metrics` reads a form (one file part; the
/// photo route's first file is in BodySpecTests): the file part comes out whole however the body is
/// cut into chunks, a boundary split across two chunks included.
@Suite("A form's file part cut out while the body streams")
struct MultipartFormTests {
    static let boundary = "----WebKitFormBoundaryAbc123"
    /// File bytes full of near-boundaries: CRs, CRLF--, and the boundary without its line break.
    static let file = Array(
        (String(repeating: "2026-03-07,steps,12\r\n\r\r\n--", count: 40)
            + "--\(boundary) not at a line start\r\n-\r\n--"
            + String(repeating: "x", count: 300)).utf8)

    static var form: [UInt8] {
        Array("preamble\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n".utf8)
            + Array(
                "--\(boundary)  \r\nContent-Disposition: form-data; name=\"file\"; filename=\"m.csv\"\r\nContent-Type: text/csv\r\n\r\n"
                    .utf8) + file + Array("\r\n--\(boundary)--\r\n".utf8)
    }

    /// What the parser writes when the body comes in chunks of `sizes` (repeated).
    static func written(
        _ body: [UInt8], sizes: [Int], boundary: String = boundary, carrying: MultipartForm.Carrying = .file
    ) throws -> [UInt8] {
        var stream = MultipartForm(boundary: Array(boundary.utf8), carrying: carrying)
        var out = [UInt8]()
        var (offset, turn) = (0, 0)
        while offset < body.count {
            let end = min(body.count, offset + sizes[turn % sizes.count])
            try stream.feed(ByteBuffer(bytes: body[offset..<end])) { out += $0 }
            (offset, turn) = (end, turn + 1)
        }
        try stream.finish()
        return out
    }

    @Test(arguments: [[1], [2], [3], [7], [29], [30], [31], [64, 1, 5], [4096], [100_000]])
    func theFileComesOutWholeInChunksOf(sizes: [Int]) throws {
        #expect(try Self.written(Self.form, sizes: sizes) == Self.file)
    }

    @Test func everyCutOfTheClosingBoundaryGivesTheSameFile() throws {
        let form = Self.form
        let closing = form.count - Self.boundary.utf8.count - 8
        for cut in (closing - 4)...(form.count - 1) {
            #expect(try Self.written(form, sizes: [cut, form.count]) == Self.file, "cut at \(cut)")
        }
    }

    @Test func aFormWithoutAFileOrCutShortIs400() throws {
        let noFile = Array("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--B--\r\n".utf8)
        let cutShort = Array("--B\r\nContent-Disposition: form-data; name=\"a\"; filename=\"a\"\r\n\r\nxyz".utf8)
        for (body, expected) in [(noFile, "no file"), (cutShort, "not multipart"), (Array("hello".utf8), "no file")] {
            var stream = MultipartForm(boundary: Array("B".utf8), carrying: .file)
            let error = #expect(throws: APIError.self) {
                try stream.feed(ByteBuffer(bytes: body)) { _ in }
                try stream.finish()
            }
            #expect(
                error?.status == .badRequest && error?.message.contains(expected) == true, "\(error?.message ?? "")")
        }
    }

    @Test func partHeadersWithoutEndAreRefusedAtTheirLimit() throws {
        var stream = MultipartForm(boundary: Array("B".utf8), carrying: .file)
        let endless = Array("--B\r\nX-Filler: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 10_000)
        let error = #expect(throws: APIError.self) { try stream.feed(ByteBuffer(bytes: endless)) { _ in } }
        #expect(error?.message.contains("header") == true)
    }

    /// A second file was dropped unread while the client believed it sent both; the parts after
    /// the file are still read, and only a file among them is refused.
    @Test(arguments: [[1], [7], [100_000]]) func aSecondFileIs400AndOtherPartsAfterTheFileAreRead(sizes: [Int]) throws {
        let closing = Array("\r\n--\(Self.boundary)--\r\n".utf8)
        let withoutClosing = Array(Self.form.dropLast(closing.count))
        let note = Array("\r\n--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\nlater".utf8)
        #expect(try Self.written(withoutClosing + note + closing, sizes: sizes) == Self.file)
        let second = Array(
            "\r\n--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"g\"; filename=\"b.csv\"\r\n\r\nmore".utf8)
        let error = #expect(throws: APIError.self) {
            _ = try Self.written(withoutClosing + note + second + closing, sizes: sizes)
        }
        #expect(error?.status == .badRequest && error?.message.contains("more than one file") == true)
    }

    /// Blanks after a boundary, however they are cut into chunks: a metrics form takes 64 (the 65th
    /// is 400), a photo's form any number.
    @Test(arguments: [[1], [3], [100_000]]) func blanksAfterABoundaryAreTakenUpToTheRoutesLimit(sizes: [Int]) throws {
        func form(_ blanks: Int) -> [UInt8] {
            Array(
                ("--B" + String(repeating: " ", count: blanks) + "\r\nContent-Type: image/png\r\n\r\nP\r\n--B--").utf8)
        }
        #expect(try Self.written(form(64), sizes: sizes, boundary: "B", carrying: .file) == Array("P".utf8))
        let error = #expect(throws: APIError.self) {
            try Self.written(form(65), sizes: sizes, boundary: "B", carrying: .file)
        }
        #expect(error?.message.contains("not multipart") == true)
        #expect(try Self.written(form(1000), sizes: sizes, boundary: "B", carrying: .photo) == Array("P".utf8))
    }
}
