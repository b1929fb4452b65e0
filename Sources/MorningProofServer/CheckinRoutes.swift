import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService

/// `/api/checkin`, `/api/checkin/setup` and `/api/checkin/today`: the daily question as the web app
/// asks for it (the CLI's check-in, on the server's day for the account). Each route calls one use case.
struct CheckinRoutes {
    let scope: RequestScope

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/checkin", status)
        table.add(.post, "/api/checkin", answer)
        table.add(.post, "/api/checkin/setup", setup)
        table.add(.delete, "/api/checkin/today", reset)
    }

    @Sendable func status(_ request: Request, _ context: ServerContext) async throws -> Response {
        let document = try await scope.forAccount(request) { account in
            let status = try await account.checkin.status(now: account.now)
            return CheckinStateJSON(
                status: CheckinStatusJSON(status, clock: account.clock), texts: status.checkin?.texts)
        }
        return JSONResponse.make(.ok, document)
    }

    @Sendable func answer(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let body = try await JSONBody.read(request, limit: scope.configuration.bodyLimit, allowed: ["answer", "at"])
        let yes: Bool
        switch try body.requiredString("answer") {
        case "yes": yes = true
        case "no": yes = false
        case let other: throw APIError.badRequest("\"answer\" is yes or no, not \"\(other)\"")
        }
        let at = try EntryRoutes.instant(body.string("at"))
        let answered = try await signedIn.run { account in
            await CheckinAnswerJSON(
                try account.checkin.answer(yes: yes, now: account.now, at: at))
        }
        return JSONResponse.make(.ok, answered)
    }

    @Sendable func setup(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let body = try await JSONBody.read(
            request, limit: scope.configuration.bodyLimit, allowed: ["preset", "question"])
        let preset = try body.string("preset").map { name in
            guard let preset = CheckinTexts.Preset(rawValue: name) else {
                throw APIError.badRequest("\"preset\" is faith or general, not \"\(name)\"")
            }
            return preset
        }
        let question = try body.string("question")
        let setup = try await signedIn.run { account in
            await CheckinSetupJSON(
                try account.checkin.setup(preset: preset, question: question, now: account.now))
        }
        return JSONResponse.make(setup.created ? .created : .ok, setup)
    }

    /// Starting the day over is for tests and demos, like the clock header it goes with: without
    /// `--allow-clock-header` it is 404, said as any unknown path is, after the token is checked
    /// (401 first, as on every route).
    @Sendable func reset(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        guard scope.configuration.allowClockHeader else {
            throw APIError(
                status: .notFound, code: "not_found",
                message: "no such path: \(request.uri.path)")
        }
        let cleared = try await signedIn.run { account in
            let (day, was) = try await account.checkin.reset(now: account.now)
            return ["day": day.description, "cleared": was.map { $0 ? "yes" : "no" } ?? "nothing"]
        }
        return JSONResponse.make(.ok, cleared)
    }
}
