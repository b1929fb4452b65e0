import Foundation
import Hummingbird
import HabitCharts
import MorningProofCore
import MorningProofService
import MorningProofStore
import MultipartKit
import NIOCore
import PhotoVerification

/// The habits' reports and today's status, and photo proofs: what `status --json`, `report --format
/// json` and `verify --habit` do, for the signed-in account.
struct ProofRoutes {
    let scope: RequestScope

    /// The largest photo upload: a phone's 48-megapixel JPEG fits.
    static let maxPhotoBytes = 25 * 1024 * 1024
    /// Pixels decoded at most: a server does not decode 100-megapixel PNGs for anyone who asks.
    static let maxPixels = 50_000_000

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/status", status)
        table.add(.get, "/api/habits/:id/report", report)
        table.add(.get, "/api/habits/:id/chart.svg", chart)
        table.add(.post, "/api/habits/:id/proof", proof)
    }

    @Sendable func status(_ request: Request, _ context: ServerContext) async throws -> Response {
        let status = try await scope.forAccount(request) { account in
            StatusJSON(try ReportService(database: account.database, clock: account.clock).status(now: account.now))
        }
        return JSONResponse.make(.ok, status)
    }

    @Sendable func report(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try HabitRoutes.id(context)
        let (from, to) = (HabitRoutes.query(request, "from"), HabitRoutes.query(request, "to"))
        let weeks = try HabitRoutes.query(request, "weeks").map { text in
            guard let weeks = Int(text) else { throw APIError.badRequest("\"weeks\" must be a whole number") }
            return weeks
        }
        let report = try await scope.forAccount(request) { account in
            let habit = try HabitService(database: account.database, clock: account.clock).habit(id: id)
            let weeks = weeks ?? ReportRange.defaultWeeks
            try ReportRange.checkWeeks(weeks)
            return ReportJSON(
                try ReportService(database: account.database, clock: account.clock)
                    .report(habits: [habit], from: from, to: to, weeks: weeks, now: account.now))
        }
        return JSONResponse.make(.ok, report)
    }

    /// The picture of `report NAME --svg`: the heatmap and the score curve over `weeks` (default 26).
    @Sendable func chart(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try HabitRoutes.id(context)
        let weeks = try HabitRoutes.query(request, "weeks").map { text in
            guard let weeks = Int(text) else { throw APIError.badRequest("\"weeks\" must be a whole number") }
            return weeks
        } ?? 26
        let theme = try HabitRoutes.query(request, "theme").map { name in
            guard let theme = ChartTheme(rawValue: name) else {
                throw APIError.badRequest("\"theme\" is light or dark, not \"\(name)\"")
            }
            return theme
        }
        let svg = try await scope.forAccount(request) { account in
            try ReportRange.checkWeeks(weeks)
            let habit = try HabitService(database: account.database, clock: account.clock).habit(id: id)
            return try ChartService(database: account.database, clock: account.clock)
                .chart(of: habit, weeks: weeks, now: account.now).svg(theme: theme)
        }
        return Response(
            status: .ok, headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
    }

    @Sendable func proof(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try HabitRoutes.id(context)
        let photo = try await Self.photo(request)
        // Decoded and judged on the CPU pool, not on the thread pool that every account's store calls use.
        let judgement = try await scope.cpuWork.run {
            try BedVerifier().verify(data: photo, name: "the photo", maxPixels: Self.maxPixels)
        }
        let document = try await scope.forAccount(request) { account in
            let habits = HabitService(database: account.database, clock: account.clock)
            let proofs = ProofService(database: account.database, clock: account.clock)
            let habit = try proofs.photoHabit(try habits.habit(id: id))
            let outcome = try proofs.offer(judgement, habit: habit, now: account.now)
            return ProofJSON(
                judgement, outcome: outcome, day: account.clock.day(at: account.now),
                habit: HabitResourceJSON(habit, progress: try habits.show(habit, now: account.now)))
        }
        if let refusal = document.proofRefused {
            throw APIError(status: .unprocessableContent, code: "proof_refused", message: "proof refused: \(refusal)")
        }
        return JSONResponse.make(document.recordedNow ? .created : .ok, document)
    }

    /// The photo of the request: its body as `image/jpeg` or `image/png`, or the first file part of a
    /// `multipart/form-data` body (a form's file input). 413 past 25 MB, 415 for another type.
    static func photo(_ request: Request) async throws -> Data {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxPhotoBytes {
            throw APIError(
                status: .contentTooLarge, code: "payload_too_large",
                message: "the photo is over \(maxPhotoBytes / 1024 / 1024) MB")
        }
        let type = request.headers[.contentType]?.lowercased() ?? ""
        let media = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard ["image/jpeg", "image/png", "multipart/form-data"].contains(media) else {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupported_media_type",
                message: "send the photo as image/jpeg, image/png or multipart/form-data, not \(media.isEmpty ? "nothing" : media)")
        }
        var body = try await request.body.collect(upTo: maxPhotoBytes)
        guard media == "multipart/form-data" else { return Data(body.readableBytesView) }
        guard let boundary = Self.boundary(of: type) else {
            throw APIError.badRequest("multipart/form-data needs a boundary")
        }
        guard let part = try? Self.firstFilePart(&body, boundary: boundary) else {
            throw APIError.badRequest("the form holds no photo (a file part)")
        }
        return part
    }

    static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0] == "boundary" {
                let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    /// The body of the first part with a file name (or an image type), read with MultipartKit's parser.
    static func firstFilePart(_ body: inout ByteBuffer, boundary: String) throws -> Data? {
        let parser = MultipartParser(boundary: boundary)
        var isFile = false
        var current = Data()
        var found: Data?
        parser.onHeader = { name, value in
            let lowered = value.lowercased()
            if name.lowercased() == "content-disposition", lowered.contains("filename=") { isFile = true }
            if name.lowercased() == "content-type", lowered.hasPrefix("image/") { isFile = true }
        }
        parser.onBody = { chunk in
            if isFile, found == nil { current.append(contentsOf: chunk.readableBytesView) }
        }
        parser.onPartComplete = {
            if isFile, found == nil { found = current }
            isFile = false
            current = Data()
        }
        try parser.execute(body)
        return found
    }
}

/// What a photo proof did: the verdict, and what happened to the day.
struct ProofJSON: Encodable, Sendable {
    let made: Bool
    let confidence: Double
    let reasons: [String]
    let width: Int
    let height: Int
    /// The day the photo was offered for (today for the account).
    let day: String
    /// True when the day is done by this photo or was done already (the photo kept as evidence).
    let recorded: Bool
    /// The rule that refused the photo (a repeat of another day's, taken on another day).
    let proofRefused: String?
    /// When the photo says it was taken; left out when it does not say.
    let captureTime: String?
    let habit: HabitResourceJSON
    /// True when this photo newly recorded the day (201).
    let recordedNow: Bool

    init(_ judgement: PhotoJudgement, outcome: PhotoProofOutcome?, day: LocalDay, habit: HabitResourceJSON) {
        made = judgement.verdict.made
        confidence = (judgement.verdict.confidence * 1000).rounded() / 1000
        reasons = judgement.verdict.reasons
        width = judgement.info.width
        height = judgement.info.height
        self.day = day.description
        recorded = outcome?.refusal == nil && outcome?.recorded != nil
        proofRefused = outcome?.refusal
        captureTime = outcome?.captureTime
        self.habit = habit
        switch outcome?.recorded {
        case .recorded, .replaced: recordedNow = outcome?.refusal == nil
        default: recordedNow = false
        }
    }

    enum CodingKeys: String, CodingKey {
        case made, confidence, reasons, width, height, day, recorded, proofRefused, captureTime, habit
    }
}
