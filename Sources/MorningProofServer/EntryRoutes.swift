import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// `/api/habits/{id}/entries` and `/api/habits/{id}/entries/{day}`: a habit's days, what `done`,
/// `skip` and `undo` do, for the signed-in account.
struct EntryRoutes {
    let scope: RequestScope
    var bodyLimit: Int { scope.configuration.bodyLimit }

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/habits/:id/entries", entries)
        table.add(.put, "/api/habits/:id/entries/:day", record)
        table.add(.delete, "/api/habits/:id/entries/:day", undo)
    }

    @Sendable func entries(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try HabitRoutes.id(context)
        let (from, to) = (HabitRoutes.query(request, "from"), HabitRoutes.query(request, "to"))
        let entries = try await scope.forAccount(request) { account in
            try await account.entries.entries(habitID: id, from: from, to: to, now: account.now).map(EntryJSON.init)
        }
        return JSONResponse.make(.ok, ["entries": entries])
    }

    @Sendable func record(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (id, day) = (try HabitRoutes.id(context), try HabitRoutes.day(context))
        let signedIn = try await scope.signIn(request)
        let body = try await JSONBody.read(request, limit: bodyLimit, allowed: ["status", "note", "value", "at"])
        let status: EntryStatus
        switch try body.requiredString("status") {
        case "done": status = .done
        case "skipped": status = .skipped
        case let other: throw APIError.badRequest("\"status\" is done or skipped, not \"\(other)\"")
        }
        let (note, value) = (try body.string("note"), try body.number("value"))
        let at = try Self.instant(body.string("at"))
        let document = try await signedIn.run { account in
            let recorded = try await account.entries
                .record(status, habitID: id, day: day, note: note, value: value, now: account.now, at: at)
            return EntryChangeJSON(recorded.change, entry: recorded.entry)
        }
        return JSONResponse.make(document.result == "recorded" ? .created : .ok, document)
    }

    @Sendable func undo(_ request: Request, _ context: ServerContext) async throws -> Response {
        let (id, day) = (try HabitRoutes.id(context), try HabitRoutes.day(context))
        let at = try Self.instant(HabitRoutes.query(request, "at"))
        let document = try await scope.forAccount(request) { account in
            let undone = try await account.entries.undo(habitID: id, day: day, now: account.now, at: at)
            return EntryChangeJSON(undone.change, entry: undone.entry)
        }
        return JSONResponse.make(.ok, document)
    }

    /// The instant an action happened, as a client sends it (`at`: the spec's `ActionInstant`, ISO
    /// 8601 with an offset or Z); 400 for anything else.
    static func instant(_ text: String?) throws -> Date? {
        try text.map { try ISOInstant.readAction($0, field: "\"at\"") }
    }
}
