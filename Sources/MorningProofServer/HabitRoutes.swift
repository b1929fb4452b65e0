import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// Habits and their days over HTTP, on the CLI's rules: each route decodes, calls one use case of
/// `HabitService` or `EntryService` for the signed-in account, and encodes what the CLI's `--json` writes.
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
        table.add(.get, "/api/habits/:id", show)
        table.add(.patch, "/api/habits/:id", change)
        table.add(.delete, "/api/habits/:id", remove)
        table.add(.get, "/api/habits/:id/entries", entries)
        table.add(.put, "/api/habits/:id/entries/:day", record)
        table.add(.delete, "/api/habits/:id/entries/:day", undo)
    }

    @Sendable func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let archived = try await Self.flag(request, "archived")
        let habits = try await scope.forAccount(request) { account in
            let service = HabitService(database: account.database, clock: account.clock)
            var resources: [HabitResourceJSON] = []
            for habit in try await account.database.habits(includeArchived: archived) {
                resources.append(try await HabitResourceJSON(habit, service: service, now: account.now))
            }
            return resources
        }
        return JSONResponse.make(.ok, ["habits": habits])
    }

    @Sendable func create(_ request: Request, _ context: ServerContext) async throws -> Response {
        let signedIn = try await scope.signIn(request)
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: Self.detailFields.union(["name"]))
        let name = try body.requiredString("name")
        let details = try Self.details(body)
        let habit = try await signedIn.run { account in
            let service = HabitService(database: account.database, clock: account.clock)
            let habit = try await service.add(named: name, details, now: account.now)
            return try await HabitResourceJSON(habit, service: service, now: account.now)
        }
        return JSONResponse.make(.created, habit)
    }

    @Sendable func show(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try Self.id(context)
        let habit = try await scope.forAccount(request) { account in
            let service = HabitService(database: account.database, clock: account.clock)
            let habit = try await service.habit(id: id)
            return try await HabitResourceJSON(habit, service: service, now: account.now)
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
            let service = HabitService(database: account.database, clock: account.clock)
            let habit = try await service.edit(try service.habit(id: id), rename: rename, archived: archived, details)
            return try await HabitResourceJSON(habit, service: service, now: account.now)
        }
        return JSONResponse.make(.ok, habit)
    }

    @Sendable func remove(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try Self.id(context)
        try await scope.forAccount(request) { account in
            let service = HabitService(database: account.database, clock: account.clock)
            _ = try await service.remove(try service.habit(id: id))
        }
        return Response(status: .noContent)
    }

    @Sendable func entries(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try Self.id(context)
        let (from, to) = (Self.query(request, "from"), Self.query(request, "to"))
        let entries = try await scope.forAccount(request) { account in
            let service = HabitService(database: account.database, clock: account.clock)
            let habit = try await service.habit(id: id)
            let today = account.clock.day(at: account.now)
            // A range that ends before it starts holds no entries.
            let first = try from.map { try LocalDay.resolve($0, today: today) }
            let last = try to.map { try LocalDay.resolve($0, today: today) }
            return try await account.database.entries(habitID: habit.id)
                .filter { entry in first.map { entry.day >= $0 } ?? true && last.map { entry.day <= $0 } ?? true }
                .map(EntryJSON.init)
        }
        return JSONResponse.make(.ok, ["entries": entries])
    }

    @Sendable func record(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (id, day) = (try Self.id(context), try Self.day(context))
        let signedIn = try await scope.signIn(request)
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: ["status", "note", "value"])
        let status: EntryStatus
        switch try body.requiredString("status") {
        case "done": status = .done
        case "skipped": status = .skipped
        case let other: throw APIError.badRequest("\"status\" is done or skipped, not \"\(other)\"")
        }
        let (note, value) = (try body.string("note"), try body.number("value"))
        let document = try await signedIn.run { account in
            let habit = try await HabitService(database: account.database, clock: account.clock).habit(id: id)
            let change = try await EntryService(database: account.database, clock: account.clock)
                .record(status, habit: habit, day: day, note: note, value: value, now: account.now)
            return await EntryChangeJSON(change, entry: try account.database.entry(habitID: habit.id, day: change.day))
        }
        return JSONResponse.make(document.result == "recorded" ? .created : .ok, document)
    }

    @Sendable func undo(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (id, day) = (try Self.id(context), try Self.day(context))
        let document = try await scope.forAccount(request) { account in
            let habit = try await HabitService(database: account.database, clock: account.clock).habit(id: id)
            let change = try await EntryService(database: account.database, clock: account.clock)
                .undo(habit: habit, day: day, now: account.now)
            return EntryChangeJSON(change, entry: nil)
        }
        return JSONResponse.make(.ok, document)
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
        details.remindAt = try body.string("remindAt")
        details.required = try body.bool("required")
        details.note = try body.string("note")
        details.metric = try body.string("metric")
        details.atLeast = try body.text("atLeast")
        details.atMost = try body.text("atMost")
        details.activity = try body.string("activity")
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

/// A habit as the API gives it: its id, the fields of `habit show --json`, and for a metric habit
/// today's value (`todayValue`, and in words `todayText`), left out when the day has no data.
struct HabitResourceJSON: Encodable, Sendable {
    let id: Int64
    let habit: HabitJSON
    var today: (value: Double, text: String)?

    init(_ habit: Habit, progress: HabitProgress, today: (value: Double, text: String)? = nil) {
        id = habit.id
        self.habit = HabitJSON(habit, progress: progress)
        self.today = today
    }

    /// The habit with its progress and today's metric value, as the service gives them.
    init(_ habit: Habit, service: HabitService, now: Date) async throws {
        self.init(habit, progress: try await service.show(habit, now: now), today: try await service.metricToday(habit, now: now))
    }

    func encode(to encoder: Encoder) throws {
        try habit.encode(to: encoder)
        enum Keys: String, CodingKey { case id, todayValue, todayText }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(today?.value, forKey: .todayValue)
        try container.encodeIfPresent(today?.text, forKey: .todayText)
    }
}

/// One stored day of a habit.
struct EntryJSON: Encodable, Sendable {
    let day: String
    let status: String
    let value: Double?
    let source: String
    let note: String?
    let recordedAt: String
    let zone: String

    init(_ entry: Entry) {
        day = entry.day.description
        status = entry.status.rawValue
        value = entry.value
        source = entry.source.rawValue
        note = entry.note
        recordedAt = ISOInstant.format(entry.recordedAt, in: TimeZone(identifier: entry.zone) ?? .gmt)
        zone = entry.zone
    }
}

/// What recording or undoing a day did, and the habit afterwards.
struct EntryChangeJSON: Encodable, Sendable {
    let day: String
    /// recorded, replaced, unchanged, kept manual (a manual entry wins), cleared, nothing to clear.
    let result: String
    /// The day's entry after the change; left out when there is none.
    let entry: EntryJSON?
    let habit: HabitResourceJSON

    init(_ change: EntryChange, entry: Entry?) {
        day = change.day.description
        switch change.kind {
        case .recorded(.recorded): result = "recorded"
        case .recorded(.replaced): result = "replaced"
        case .recorded(.unchanged): result = "unchanged"
        case .recorded(.keptManual): result = "kept manual"
        case .cleared(nil, nil): result = "nothing to clear"
        case .cleared: result = "cleared"
        }
        self.entry = entry.map(EntryJSON.init)
        habit = HabitResourceJSON(change.habit, progress: change.progress)
    }
}
