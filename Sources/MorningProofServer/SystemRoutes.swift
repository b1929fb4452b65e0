import Hummingbird
import NIOCore

/// What needs no account and no database: a health check and the API's description.
enum SystemRoutes {
    static func add(to table: inout RouteTable) {
        table.add(.get, "/health") { _, _ in
            JSONResponse.make(.ok, ["status": "ok"])
        }
        table.add(.get, "/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml)))
        }
    }
}
