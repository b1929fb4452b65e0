import HealthMetrics
import MorningProofCore
import Testing

/// A metrics file that cannot be read, in MorningProof's one vocabulary: missing 66, unreadable 74,
/// not metrics 65 (400 on the server), with its message as it was and no code of its own.
@Suite struct MetricFileErrorKindTests {
    @Test func eachProblemIsItsKind() {
        let expected: [(MetricFileProblem, MorningProofError.Kind)] = [
            (.noSuchFile, .noInput), (.unreadable, .ioError), (.notMetrics, .dataError),
        ]
        for (problem, kind) in expected {
            let error = MetricFileError(problem, path: "m.csv", "m.csv: cannot be read").morningProofError
            #expect(error == MorningProofError(kind, "m.csv: cannot be read"), "\(problem)")
        }
    }
}
