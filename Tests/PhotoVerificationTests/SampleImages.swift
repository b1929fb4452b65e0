import Foundation
import TestFixtures

/// Paths of the committed files in SampleImages/ (made by scripts/make-sample-images).
enum Samples {
    static func path(_ name: String) -> String { SampleImages.path(name) }
    static func broken(_ name: String) -> String { SampleImages.path("broken/\(name)") }
}
