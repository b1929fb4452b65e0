import Foundation
import HTTPTypes
import MorningProofCore
import MorningProofTestSupport
import Testing

@testable import MorningProofServer

/// `GET /api/metrics` after a long history (issue 38, point 4): the totals of a week stay right,
/// read from that week's rows; one account has at most two such reads computed at once.
@Suite("Metric reads after a long history")
struct MetricReadBoundTests {
    /// 08:00 in New York (UTC-5) on 2026-02-22: the end of an unbroken run of ten-minute intervals.
    static let runEnd = 1_771_765_200.0

    /// A Health Auto Export body: `count` ten-minute asleep intervals one after another up to
    /// `runEnd` (one "night" of months, which counts for no day), then four nights of 23:00 to
    /// 07:00 ending on the 23rd through the 26th.
    static func body(count: Int) -> Data {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(secondsFromGMT: -18_000)
        format.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        func entry(_ start: Double, minutes: Double) -> String {
            let (from, to) = (Date(timeIntervalSince1970: start), Date(timeIntervalSince1970: start + minutes * 60))
            return #"{"startDate":"\#(format.string(from: from))","endDate":"\#(format.string(from: to))","#
                + #""qty":\#(minutes / 60),"value":"Core","source":"Sleep Logger"}"#
        }
        let run = (0..<count).map { entry(runEnd - Double($0 + 1) * 600, minutes: 10) }
        let nights = (0..<4).map { entry(runEnd + 15 * 3_600 + Double($0) * 86_400, minutes: 480) }
        let data = (run + nights).joined(separator: ",")
        return Data(#"{"data":{"metrics":[{"name":"sleep_analysis","units":"hr","data":[\#(data)]}]}}"#.utf8)
    }

    @Test(arguments: Engine.available) func aWeekAfterMonthsOfUnbrokenSleepReadsRight(engine: Engine) async throws {
        try await MetricRouteTests.withOwner(engine) { api, ada in
            let posted = try await api.upload(
                "/api/metrics", token: ada, at: MetricRouteTests.now, type: "application/json",
                body: Self.body(count: 30_000))
            #expect(posted.status == .ok && posted.json["records"] as? Int == 30_004, "\(posted.body.prefix(300))")
            let totals = try await api.metricTotals(ada, from: "2026-02-20", to: "2026-02-26")
            #expect(totals.status == .ok)
            let rows = try #require(totals.json["days"] as? [[String: Any]], "\(totals.body)")
            let sleep = rows.map { $0["sleepMinutes"] as? Int }
            #expect(sleep == [nil, nil, nil, 480, 480, 480, 480], "\(totals.body)")
        }
    }

    @Test func aThirdReadOfOneAccountIs429WhileOtherAccountsGoOn() async throws {
        let reads = PerAccountAdmission(limit: 2)
        let released = Locked(false)
        let holders = (0..<2).map { _ in
            Task {
                try await reads.run(7) {
                    while !released.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
                }
            }
        }
        while reads.count(of: 7) < 2 { try await Task.sleep(for: .milliseconds(5)) }
        let refused = await #expect(throws: APIError.self) { try await reads.run(7) { 1 } }
        #expect(refused?.status == .tooManyRequests && refused?.headers[.retryAfter] == "1")
        #expect(try await reads.run(8) { 2 } == 2)
        released.withLock { $0 = true }
        for holder in holders { try await holder.value }
        #expect(reads.count(of: 7) == 0)
        #expect(try await reads.run(7) { 3 } == 3)
    }
}
