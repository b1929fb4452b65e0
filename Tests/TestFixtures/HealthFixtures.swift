import Foundation
import MorningProofCore

/// The health fixtures this project made, under Tests/Fixtures/health, with the zone they were
/// "recorded" in.
public enum HealthFixtures {
    /// Tests/Fixtures/health.
    public static let folder = Fixtures.url("health")

    /// The path of the health fixture `name`, such as `"export.xml"`.
    public static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// New York, where the fixtures were "recorded"; 2026-03-08 is its spring-forward day.
    public static let clock = DayClock(zoneIdentifier: "America/New_York")!

    /// The day written `text` (`"2026-03-08"`); a test's own constant, so a typo fails loudly.
    public static func day(_ text: String) -> LocalDay { LocalDay(text)! }

    /// A new empty temporary folder, removed by the caller.
    public static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mp-health-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
