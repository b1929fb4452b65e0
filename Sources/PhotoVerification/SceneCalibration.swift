import Foundation
import MorningProofCore

/// Measures the scene matcher on photos of different rooms: for each room a reference (the left 85% of
/// its photo) and a proof (the right 85%, re-exposed by 20% and turned 2 to 3 degrees), which must
/// match and must not be called a copy; every other room's proof, which must be refused; and copies of
/// the reference (cropped and turned, or mirrored, and re-exposed), which must be called copies.
public struct SceneCalibration: Sendable {
    /// The counts measured, and the scores behind them.
    public struct Rates: Sendable {
        public var rooms = 0
        /// Proofs of the reference's own room that were refused or called copies.
        public var falseRefusals = 0
        /// Of those, the ones called copies.
        public var calledCopies = 0
        /// Proofs of another room that were accepted.
        public var falseAcceptances = 0
        public var otherRoomTrials = 0
        /// Copies of a reference that were not called copies.
        public var missedCopies = 0
        public var copyTrials = 0
        /// The best score of each room's own proof, and of every other room's.
        public var sameRoomScores: [Double] = []
        public var otherRoomScores: [Double] = []
        /// The best score of a placement inside the reference: of each room's own proof (which must stay
        /// under `copyScore`), and of each copy (which must reach it); -1 where none lies inside.
        public var ownCopyScores: [Double] = []
        public var copyScores: [Double] = []

        /// The rates as lines of text for a person.
        public var report: String {
            func percent(_ n: Int, _ of: Int) -> String {
                String(format: "%.2f%% (%d of %d)", 100 * Double(n) / Double(max(1, of)), n, of)
            }
            let same = sameRoomScores.sorted()
            let other = otherRoomScores.sorted()
            return [
                "rooms: \(rooms)",
                "false refusals (own room refused or called a copy): \(percent(falseRefusals, rooms))"
                    + ", called copies: \(calledCopies)",
                "false acceptances (another room accepted): \(percent(falseAcceptances, otherRoomTrials))",
                "copies missed (cropped+turned or mirrored, re-exposed): \(percent(missedCopies, copyTrials))",
                String(
                    format: "own room score: lowest %.3f, median %.3f; other rooms: median %.3f, highest %.3f",
                    same.first ?? 0, same.isEmpty ? 0 : same[same.count / 2],
                    other.isEmpty ? 0 : other[other.count / 2],
                    other.last ?? 0),
                String(
                    format: "copy check: own room's proof highest %.3f; copies lowest %.3f",
                    ownCopyScores.max() ?? -1, copyScores.min() ?? -1),
            ].joined(separator: "\n")
        }
    }

    public var matcher: SceneMatcher
    public var workers: Int

    public init(matcher: SceneMatcher = SceneMatcher(), workers: Int = 2) {
        self.matcher = matcher
        self.workers = workers
    }

    /// Room `index`'s reference (left 85%) and proof (right 85%, re-exposed by +/-20%, turned 2 to 3 degrees).
    public static func views(of photo: Raster, index: Int) -> (reference: Raster, proof: Raster) {
        let width = Int((Double(photo.width) * 0.85).rounded())
        let reference = photo.cropped(x: 0, y: 0, width: width, height: photo.height)
        let turns = [2.0, -2.5, 3.0, -2.0, 2.5, -3.0]
        let proof = photo.cropped(x: photo.width - width, y: 0, width: width, height: photo.height)
            .exposed(by: index % 2 == 0 ? 1.2 : 0.8).turned(by: turns[index % turns.count])
        return (reference, proof)
    }

    /// Copies of room `index`'s reference: cropped by 5% and turned, and mirrored, both re-exposed.
    public static func copies(of reference: Raster, index: Int) -> [Raster] {
        let dx = reference.width / 20
        let dy = reference.height / 20
        let cropped = reference.cropped(x: dx, y: dy, width: reference.width - dx, height: reference.height - dy)
        return [
            cropped.exposed(by: index % 2 == 0 ? 0.8 : 1.2).turned(by: index % 2 == 0 ? 2 : -2),
            reference.mirrored().exposed(by: 0.85),
        ]
    }

    /// Measures the matcher on `photos`, one photo per room.
    public func measure(_ photos: [Raster]) -> Rates {
        precondition(photos.count >= 2, "need photos of two rooms at least")
        let views = photos.enumerated().map { Self.views(of: $0.element, index: $0.offset) }
        let references = views.map { SceneSignature($0.reference) }
        let matcher = self.matcher
        // Each room's proof against every reference: its own must match, the others must be refused.
        let rows = ParallelMap.run(Array(views.indices), workers: workers) {
            i -> (SceneVerdict, [Double], Double, [Double]) in
            let probe = SceneProbe(views[i].proof)
            let own = matcher.compare(probe, with: [references[i]])
            let ownCopy = matcher.copyAlignment(probe, references[i])?.score ?? -1
            let others = references.indices.filter { $0 != i }.map { matcher.compare(probe, with: [references[$0]]) }
            let copyScores = Self.copies(of: views[i].reference, index: i).map { copy in
                matcher.copyAlignment(SceneProbe(copy), references[i])?.score ?? -1
            }
            return (own, others.map(Self.score), ownCopy, copyScores)
        }
        var rates = Rates()
        rates.rooms = photos.count
        for (own, others, ownCopy, copyScores) in rows {
            rates.sameRoomScores.append(Self.score(own))
            switch own {
            case .samePlace: break
            case .copy:
                rates.falseRefusals += 1
                rates.calledCopies += 1
            case .otherPlace: rates.falseRefusals += 1
            }
            rates.otherRoomScores += others
            rates.otherRoomTrials += others.count
            rates.falseAcceptances += others.filter { $0 >= matcher.samePlaceScore }.count
            rates.ownCopyScores.append(ownCopy)
            rates.copyScores += copyScores
            rates.copyTrials += copyScores.count
            rates.missedCopies += copyScores.filter { $0 < matcher.copyScore }.count
        }
        return rates
    }

    /// The score a verdict carries.
    static func score(_ verdict: SceneVerdict) -> Double {
        switch verdict {
        case .samePlace(let score), .copy(_, let score), .otherPlace(let score): score
        }
    }
}
