import Hummingbird
import NIOCore

/// What needs no account and no database: a health check and the API's description.
enum SystemRoutes {
    static func add(to table: inout RouteTable, configuration: ServerConfiguration) {
        // `clockHeader` tells the web app whether to show its debug panel (tests and demos).
        let health = HealthJSON(status: "ok", clockHeader: configuration.allowClockHeader)
        table.add(.get, "/health") { _, _ in
            JSONResponse.make(.ok, health)
        }
        table.add(.get, "/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml)))
        }
    }
}
