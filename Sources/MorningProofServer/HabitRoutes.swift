import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// `/api/habits` and `/api/habits/{id}`: habits over HTTP, on the CLI's rules: each route decodes,
/// calls one use case of `HabitService` for the signed-in account, and encodes what the CLI's `--json`
/// writes. The `{id}`, day and query helpers here serve every route under `/api/habits/{id}`.
struct HabitRoutes {
    let scope: RequestScope
    var bodyLimit: Int { scope.configuration.bodyLimit }

    /// The fields of `habit add` and `habit edit`, as JSON.
    static let detailFields: Set<String> = [
        "kind", "every", "times", "per", "within", "remindAt", "required", "note", "metric", "atLeast", "atMost",
        "activity",
    ]

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/habits", list)
        table.add(.post, "/api/habits", create)
        table.add(.put, "/api/habits/order", order)
        table.add(.get, "/api/habits/:id", show)
        table.add(.patch, "/api/habits/:id", change)
        table.add(.delete, "/api/habits/:id", remove)
    }

    @Sendable func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let archived = try await Self.flag(request, "archived")
        let habits = try await scope.forAccount(request) { account in
            try await account.habits.list(includeArchived: archived, now: account.now).map(HabitResourceJSON.init)
        }
        return JSONResponse.make(.ok, ["habits": habits])
    }

    @Sendable func create(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let body = try await JSONBody.read(
            request, limit: bodyLimit, allowed: Self.detailFields.union(["name", "startDay"]))
        let (name, startDay) = (try body.requiredString("name"), try body.string("startDay"))
        let details = try Self.details(body)
        let habit = try await signedIn.run { account in
            HabitResourceJSON(
                try await account.habits.create(named: name, details, since: startDay, now: account.now))
        }
        return JSONResponse.make(.created, habit)
    }

    @Sendable func show(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try Self.id(context)
        let habit = try await scope.forAccount(request) { account in
            HabitResourceJSON(
                try await account.habits.view(id: id, now: account.now))
        }
        return JSONResponse.make(.ok, habit)
    }

    @Sendable func change(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try Self.id(context)
        let signedIn = try await scope.signIn(request)
        let body = try await JSONBody.read(
            request, limit: bodyLimit, allowed: Self.detailFields.union(["name", "archived"]))
        let (rename, archived, details) = (try body.string("name"), try body.bool("archived"), try Self.details(body))
        let habit = try await signedIn.run { account in
            HabitResourceJSON(
                try await account.habits.edit(id: id, rename: rename, archived: archived, details, now: account.now))
        }
        return JSONResponse.make(.ok, habit)
    }

    /// `PUT /api/habits/order` with `{"ids": [...]}`: every active habit's id once, in the new order;
    /// answers the active habits as `GET /api/habits` does, in that order.
    @Sendable func order(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: ["ids"])
        // JSON numbers are exact up to 2^53 - 1, which openapi.yaml gives as the largest id.
        guard let ids = try body.integers("ids", in: 1...9_007_199_254_740_991).map({ $0.map(Int64.init) }) else {
            throw APIError.badRequest("\"ids\" is required: every active habit's id once, in the new order")
        }
        let habits = try await signedIn.run { account in
            let service = account.habits
            try await service.order(ids)
            return try await service.list(includeArchived: false, now: account.now).map(HabitResourceJSON.init)
        }
        return JSONResponse.make(.ok, ["habits": habits])
    }

    @Sendable func remove(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try Self.id(context)
        try await scope.forAccount(request) { account in
            _ = try await account.habits.remove(id: id)
        }
        return Response(status: .noContent)
    }

    // MARK: - Decoding

    static func details(_ body: JSONBody) throws -> HabitDetails {
        var details = HabitDetails()
        if let kind = try body.string("kind") {
            guard let parsed = HabitKind(rawValue: kind) else {
                throw APIError.badRequest(
                    "\"kind\" is \(HabitKind.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(kind)\"")
            }
            details.kind = parsed
        }
        // The schedule's own bound, so that the spec's maximum is the server's.
        let days = 1...Schedule.maxDays
        details.every = try body.integer("every", in: days)
        details.times = try body.integer("times", in: days)
        details.per = try body.string("per")
        details.within = try body.integer("within", in: days)
        // `null` clears what it names (the goal for `metric`); a field left out keeps its value.
        let clearable: [(String, ClearableDetail)] = [
            ("remindAt", .remindAt), ("note", .note), ("metric", .goal), ("activity", .activity),
        ]
        for (key, detail) in clearable where body.isNull(key) { details.clearing.insert(detail) }
        func string(_ key: String) throws -> String? { body.isNull(key) ? nil : try body.string(key) }
        details.remindAt = try string("remindAt")
        details.required = try body.bool("required")
        details.note = try string("note")
        details.metric = try string("metric")
        details.atLeast = try body.text("atLeast")
        details.atMost = try body.text("atMost")
        details.activity = try string("activity")
        return details
    }

    static func id(_ context: ServerContext) throws -> Int64 {
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
            throw APIError(status: .notFound, code: "not_found", message: "no habit has that id")
        }
        return id
    }

    static func day(_ context: ServerContext) throws -> String {
        guard let day = context.parameters.get("day") else { throw APIError.badRequest("a day is missing") }
        return day
    }

    static func query(_ request: Request, _ name: String) -> String? {
        request.uri.queryParameters[Substring(name)].map(String.init)
    }

    /// `?archived=true` or `false` (default false).
    static func flag(_ request: Request, _ name: String) async throws -> Bool {
        switch query(request, name) {
        case nil, "false": return false
        case "true": return true
        case let other?: throw APIError.badRequest("\"\(name)\" is true or false, not \"\(other)\"")
        }
    }
}
