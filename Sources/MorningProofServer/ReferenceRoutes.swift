import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService

/// `/api/habits/{id}/references`: reference photos of a photo habit (the person's own made bed), for
/// the signed-in account. Only their scene signatures are kept.
struct ReferenceRoutes {
    let scope: RequestScope

    func add(to table: inout RouteTable) {
        table.add(.post, "/api/habits/:id/references", add)
        table.add(.get, "/api/habits/:id/references", list)
        table.add(.delete, "/api/habits/:id/references/:number", remove)
    }

    /// Bounded like the proof route: a place among the uploads, 25 MB, decoded on the CPU pool. The
    /// habit is looked up first (404 for another account's), so no photo is read for it.
    @Sendable func add(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try HabitRoutes.id(context)
        let signedIn = try await scope.signIn(request)
        let habit = try await signedIn.run { account in try await account.habits.habit(id: id) }
        let (reference, zone) = try await scope.photoUploads.run(for: signedIn.account.id) {
            let photo = try await ProofRoutes.photo(request, pool: scope.cpuWork)
            return try await signedIn.run { account in
                let added = try await Self.service(account).add(
                    .bytes(photo), to: habit, now: account.now, cpu: scope.cpuWork)
                return (added, account.clock.timeZone)
            }
        }
        return JSONResponse.make(.created, ReferencePhotoJSON(reference, zone: zone))
    }

    @Sendable func list(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try HabitRoutes.id(context)
        let document = try await scope.signIn(request).run { account in
            let habit = try await account.habits.habit(id: id)
            return ReferencePhotosJSON(try await Self.service(account).list(habit), zone: account.clock.timeZone)
        }
        return JSONResponse.make(.ok, document)
    }

    @Sendable func remove(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try HabitRoutes.id(context)
        let signedIn = try await scope.signIn(request)
        guard let text = context.parameters.get("number"), let number = Int(text), number > 0 else {
            throw APIError(status: .notFound, code: "not_found", message: "no reference photo has that number")
        }
        try await signedIn.run { account in
            let habit = try await account.habits.habit(id: id)
            try await Self.service(account).remove(number: number, of: habit)
        }
        return Response(status: .noContent)
    }

    static func service(_ account: AccountScope) -> ReferencePhotoService {
        ReferencePhotoService(database: account.database, clock: account.clock)
    }
}
