import Foundation
import HabitCharts
import Hummingbird
import MorningProofCore
import MorningProofService
import NIOCore

/// `/api/habits/{id}/report` and `/api/habits/{id}/chart.svg`: what `report --format json` and
/// `report --svg` give, for one habit of the signed-in account.
struct ReportRoutes {
    let scope: RequestScope

    func add(to table: inout RouteTable) {
        table.add(.get, "/api/habits/:id/report", report)
        table.add(.get, "/api/habits/:id/chart.svg", chart)
    }

    @Sendable func report(_ request: Request, _ context: ServerContext) async throws -> Response {
        let id = try HabitRoutes.id(context)
        let (from, to) = (HabitRoutes.query(request, "from"), HabitRoutes.query(request, "to"))
        let weeks = try HabitRoutes.query(request, "weeks").map { text in
            guard let weeks = Int(text) else { throw APIError.badRequest("\"weeks\" must be a whole number") }
            return weeks
        }
        let report = try await scope.forAccount(request) { account in
            await ReportJSON(
                try account.reports
                    .report(habitID: id, from: from, to: to, weeks: weeks ?? ReportRange.defaultWeeks, now: account.now)
            )
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
            try await account.charts.chart(habitID: id, weeks: weeks, now: account.now).svg(theme: theme)
        }
        return Response(
            status: .ok, headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
    }
}
