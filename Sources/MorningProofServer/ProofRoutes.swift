import Foundation
import HabitCharts
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract
import NIOCore
import PhotoVerification

/// The habits' reports and today's status, and photo proofs: what `status --json`, `report --format
/// json` and `verify --habit` do, for the signed-in account.
struct ProofRoutes {
    let scope: RequestScope

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
            await StatusJSON(try ReportService(database: account.database, clock: account.clock).status(now: account.now))
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
            let habit = try await HabitService(database: account.database, clock: account.clock).habit(id: id)
            let weeks = weeks ?? ReportRange.defaultWeeks
            try ReportRange.checkWeeks(weeks)
            return await ReportJSON(
                try ReportService(database: account.database, clock: account.clock)
                    .report(habits: [habit], from: from, to: to, weeks: weeks, now: account.now))
        }
        return JSONResponse.make(.ok, report)
    }

    /// The picture of `report NAME --svg`: the heatmap and the score curve over `weeks` (default 26).
    @Sendable func chart(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try HabitRoutes.id(context)
        let weeks =
            try HabitRoutes.query(request, "weeks").map { text in
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
            let habit = try await HabitService(database: account.database, clock: account.clock).habit(id: id)
            return try await ChartService(database: account.database, clock: account.clock)
                .chart(of: habit, weeks: weeks, now: account.now).svg(theme: theme)
        }
        return Response(
            status: .ok, headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
    }

    @Sendable func proof(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try HabitRoutes.id(context)
        let signedIn = try await scope.signIn(request)
        // A place among the uploads first: the body (up to 25 MB) is held until it is judged.
        let judgement = try await scope.photoUploads.run {
            let photo = try await Self.photo(request, pool: scope.cpuWork)
            // Decoded and judged on the CPU pool, not on the thread pool that every account's store calls use.
            return try await scope.cpuWork.run {
                try BedVerifier().verify(data: photo, name: "the photo", maxPixels: Self.maxPixels)
            }
        }
        let document = try await signedIn.run { account in
            let habits = HabitService(database: account.database, clock: account.clock)
            let proofs = ProofService(database: account.database, clock: account.clock)
            let habit = try await proofs.photoHabit(try habits.habit(id: id))
            let outcome = try await proofs.offer(judgement, habit: habit, now: account.now)
            return await ProofJSON(
                judgement, outcome: outcome, day: account.clock.day(at: account.now),
                habit: HabitResourceJSON(habit, progress: try habits.show(habit, now: account.now)))
        }
        if let refusal = document.proofRefused {
            throw APIError(status: .unprocessableContent, code: "proof_refused", message: "proof refused: \(refusal)")
        }
        return JSONResponse.make(document.recordedNow ? .created : .ok, document)
    }

    /// The photo of the request: its body as `image/jpeg` or `image/png`, or the first file part of a
    /// `multipart/form-data` body (a form's file input), parsed with bounded work on the CPU pool.
    /// 413 past 25 MB (while the body streams), 415 for another type.
    static func photo(_ request: Request, pool: CPUWorkPool) async throws -> Data {
        let type = MediaType(request.headers[.contentType] ?? "")
        guard ["image/jpeg", "image/png", "multipart/form-data"].contains(type.type) else {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupported_media_type",
                message:
                    "send the photo as image/jpeg, image/png or multipart/form-data, not \(type.type.isEmpty ? "nothing" : type.type)"
            )
        }
        let form = type.type == "multipart/form-data" ? try MultipartPhoto(contentType: type) : nil
        let body = try await BodyLimit.photo.collect(request)
        guard let form else { return Data(body.readableBytesView) }
        return try await pool.run { try form.firstFile(in: body) }
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
