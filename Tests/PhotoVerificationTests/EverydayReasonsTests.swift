import Testing

@testable import PhotoVerification

/// The verdict's reasons in everyday words (issue 40): what a person sees in the photo, never the
/// model's measures ("low wrinkle energy", "many slanted edges"). The CLI and the web app show them.
@Suite struct EverydayReasonsTests {
    /// Words of the model, not of a person looking at a bed.
    static let jargon = ["energy", "slanted", "entropy", "coherent", "saturat", "luma", "feature", "edge", "texture"]

    /// The bed model's features (the photo-likeness ones refuse a picture with a sentence of their own).
    static let bedFeatures = PixelStatistics.names.filter { !PhotoLikeness.names.contains($0) }

    @Test(arguments: bedFeatures)
    func everyFeatureIsSaidInEverydayWords(_ name: String) {
        for high in [true, false] {
            let words = BedVerifier.describe(name, high: high)
            #expect(!Self.jargon.contains { words.lowercased().contains($0) }, "\(name), high \(high): \(words)")
        }
    }

    @Test func aMadeBedReadsAsOnePersonWouldSayIt() throws {
        let reasons = try Scenes.judge("made-1.jpg").verdict.reasons
        #expect(reasons.contains("the covers look smooth"), "\(reasons)")
    }
}
