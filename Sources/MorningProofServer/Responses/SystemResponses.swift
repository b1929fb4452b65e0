/// `GET /health`: the server is up; `clockHeader` tells the web app whether to show its debug panel.
struct HealthJSON: Encodable, Sendable {
    let status: String
    let clockHeader: Bool
}
