import Hummingbird

/// The API's routes in one list: registered with the router, and asked which methods a path
/// allows, so that a known path with the wrong method gets 405 with `Allow` rather than 404.
/// Every GET route answers HEAD too (RFC 9110 §9.3.2): the GET's status and headers, no body.
struct RouteTable: Sendable {
    typealias Handler = @Sendable (Request, ServerContext) async throws -> Response

    struct Route: Sendable {
        let method: HTTPRequest.Method
        /// Segments such as `/api/habits/:id`; `:name` matches any one segment.
        let path: String
        let handler: Handler
    }

    private(set) var routes: [Route] = []

    mutating func add(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, path: path, handler: handler))
        if method == .get {
            routes.append(Route(method: .head, path: path) { try await Self.headOnly(handler($0, $1)) })
        }
    }

    /// The GET's answer without its body; `Content-Length` still says how long the body would be.
    private static func headOnly(_ response: Response) -> Response {
        Response(status: response.status, headers: response.headers, body: ResponseBody())
    }

    func register(on router: Router<ServerContext>) {
        for route in routes {
            router.on(RouterPath(route.path), method: route.method) { request, context in
                try await route.handler(request, context)
            }
        }
    }

    /// The methods of the routes whose path matches, in the order they were added; empty for an unknown path.
    /// As the router's trie, a segment that matches a route's constant (`/api/habits/order`) is not
    /// taken by another route's parameter (`/api/habits/:id`).
    func allowedMethods(for path: String) -> [HTTPRequest.Method] {
        let segments = Self.segments(path)
        var matching = routes.map { ($0.method, Self.segments($0.path)) }.filter { _, pattern in
            pattern.count == segments.count && zip(pattern, segments).allSatisfy({ $0.hasPrefix(":") || $0 == $1 })
        }
        for (index, segment) in segments.enumerated()
        where matching.contains(where: { !$0.1[index].hasPrefix(":") && $0.1[index] == segment }) {
            matching.removeAll { $0.1[index].hasPrefix(":") }
        }
        var methods: [HTTPRequest.Method] = []
        for (method, _) in matching where !methods.contains(method) { methods.append(method) }
        return methods
    }

    /// Segments without empty ones, as the router's trie splits a path.
    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/")
    }
}
