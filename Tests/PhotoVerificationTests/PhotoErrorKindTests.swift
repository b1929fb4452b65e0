import MorningProofCore
import PhotoVerification
import Testing

/// A photo that cannot be used, in MorningProof's one vocabulary: the kind the front ends map to an
/// exit code (66 missing, 74 unreadable, 65 any other) or a status (400 `bad_image` for a body sent).
@Suite struct PhotoErrorKindTests {
    @Test func eachProblemIsItsKindWithTheWordBadImage() {
        let expected: [(PhotoProblem, MorningProofError.Kind)] = [
            (.noSuchFile, .noInput), (.unreadable, .ioError), (.notAnImage, .dataError), (.damaged, .dataError),
            (.refused, .dataError), (.tooManyPixels, .dataError), (.badModel, .dataError),
        ]
        for (problem, kind) in expected {
            let error = PhotoError(problem, path: "p.jpg", "p.jpg: no good").morningProofError
            #expect(error.kind == kind, "\(problem)")
            #expect(error.code == "bad_image", "\(problem)")
            #expect(error.message == "p.jpg: no good", "\(problem)")
        }
    }

    /// Only over the pixel limit does the message name a next step, which a front end words.
    @Test func tooManyPixelsSuggestsRaisingTheLimit() {
        struct Brackets: ErrorPhrasing {
            func hint(_ hint: ErrorHint) -> String { "[\(hint)]" }
        }
        let big = PhotoError(.tooManyPixels, path: "big.png", "big.png: too many pixels").morningProofError
        #expect(big.text.rendered(by: Brackets()) == "big.png: too many pixels[raisePixelLimit]")
        let damaged = PhotoError(.damaged, path: "d.jpg", "d.jpg: ends early").morningProofError
        #expect(damaged.text.rendered(by: Brackets()) == "d.jpg: ends early")
    }
}
