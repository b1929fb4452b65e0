import Foundation
import Hummingbird
import MorningProofCore
import MorningProofService
import NIOCore

/// `/api/habits/{id}/proof`: a photo proof, what `verify --habit` does, for the signed-in account.
struct ProofRoutes {
    let scope: RequestScope

    func add(to table: inout RouteTable) {
        table.add(.post, "/api/habits/:id/proof", proof)
    }

    /// The photo is read (a place among the uploads first, one of the account's own: the body, up
    /// to 25 MB, is held until it is judged), then judged and offered by one call; the proof's kind
    /// is the status.
    @Sendable func proof(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try HabitRoutes.id(context)
        let signedIn = try await scope.signIn(request)
        let proof = try await scope.photoUploads.run(for: signedIn.account.id) {
            let photo = try await Self.photo(request, pool: scope.cpuWork)
            return try await signedIn.run { account in
                // Decoded and judged on the CPU pool, not on the thread pool that every account's store calls use.
                try await account.proofs.prove(.bytes(photo), habitID: id, now: account.now, cpu: scope.cpuWork)
            }
        }
        switch proof.kind {
        case .refused(let reason):
            throw APIError(status: .unprocessableContent, code: "proof_refused", message: "proof refused: \(reason)")
        case .recordedNow:
            return JSONResponse.make(.created, ProofJSON(proof))
        case .alreadyRecorded, .notMade:
            return JSONResponse.make(.ok, ProofJSON(proof))
        }
    }

    /// The places of photo bodies (proofs and reference photos): `limit` at once server-wide, and
    /// per account half the CPU pool's threads (at least one), so that one account sending many
    /// photos at once never takes every place nor every thread that decodes them; its next photo is
    /// answered 429 with `Retry-After` without being read.
    static func photoUploads(limit: Int, cpu: CPUWorkPool) -> BoundedAdmission {
        BoundedAdmission(limit: limit, perAccount: max(1, cpu.threads / 2), ownShareRefusal: ownPhotosInProgress)
    }

    static let ownPhotosInProgress = APIError(
        status: .tooManyRequests, code: "photos_in_progress",
        message: "this account's earlier photos are still being judged; send this one when one of them is answered",
        headers: [.retryAfter: "2"])

    /// The photo of the request: its body as one of `MediaType.photoTypes`, or the first file part of a
    /// `multipart/form-data` body (a form's file input), parsed with bounded work on the CPU pool.
    /// 413 past 25 MB (while the body streams), 415 for another type.
    static func photo(_ request: Request, pool: CPUWorkPool) async throws -> Data {
        let type = MediaType(request.headers[.contentType] ?? "")
        guard MediaType.photoTypes.contains(type.type) else {
            throw APIError(
                status: .unsupportedMediaType, code: "unsupported_media_type",
                message:
                    "send the photo as image/jpeg, image/png, image/heic, image/webp or multipart/form-data, not \(type.type.isEmpty ? "nothing" : type.type)"
            )
        }
        let form = type.type == "multipart/form-data" ? try MultipartForm(contentType: type, carrying: .photo) : nil
        let body = try await BodyLimit.photo.collect(request)
        guard let form else { return Data(body.readableBytesView) }
        return try await pool.run { try form.file(in: body) }
    }
}
