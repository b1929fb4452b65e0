import Foundation
import MorningProofCore
import MorningProofStore
import MorningProofStoreContract

/// The health fixtures this project made, under Tests/Fixtures/health.
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/health")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// New York, where the fixtures were "recorded"; 2026-03-08 is its spring-forward day.
    static let clock = DayClock(zoneIdentifier: "America/New_York")!

    static func day(_ text: String) -> LocalDay { LocalDay(text)! }

    /// A temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mp-health-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
