import Foundation

/// Paths of the committed files in SampleImages/ (made by scripts/make-sample-images).
enum Samples {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleImages")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    static func broken(_ name: String) -> String { folder.appendingPathComponent("broken/\(name)").path }
}
