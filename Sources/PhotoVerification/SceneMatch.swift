import Foundation

/// How a photo's signature lines up with a reference's at the best shift found.
public struct SceneAlignment: Sendable, Equatable {
    /// The correlation of the cells that overlap, -1 to 1: near 0 for another room, well above for the same.
    public var score: Double
    /// The share of the photo's cells that fall on the reference (1: the photo lies inside it).
    public var photoCovered: Double

    public init(score: Double, photoCovered: Double) {
        self.score = score
        self.photoCovered = photoCovered
    }
}

/// A photo offered as proof, measured the ways a morning may change it: its signature at a few scales
/// and half-cell shifts (a phone held a little nearer or further), and for the copy check also turned
/// a few degrees and mirrored.
public struct SceneProbe: Sendable {
    /// Scales of the photo tried against a reference, as shares of `SceneSignature.longSide`.
    static let scales = [0.88, 0.94, 1.0, 1.06, 1.12]
    /// Turns tried by the copy check, in degrees.
    static let turns = [-3.0, -1.5, 0, 1.5, 3.0]

    let views: [SceneGrid]
    let copyViews: [SceneGrid]
    /// The photo's own signature (at `longSide`, unshifted), as a reference keeps one: what a proof
    /// keeps, so that a later copy of it is told (`SceneMatcher.copyAlignment`).
    public let signature: SceneSignature

    /// Measures `raster` (the decoded photo, any size).
    public init(_ raster: Raster) {
        signature = SceneSignature(raster)
        var views: [SceneGrid] = []
        var copyViews: [SceneGrid] = []
        let half = SceneSignature.cell / 2
        for scale in Self.scales {
            let plane = LumaPlane(raster, longSide: Int((Double(SceneSignature.longSide) * scale).rounded()))
            for (dx, dy) in [(0, 0), (half, 0), (0, half), (half, half)] {
                views.append(SceneGrid(SceneSignature(plane.dropping(columns: dx, rows: dy))))
            }
            for mirrored in [false, true] {
                let facing = mirrored ? plane.mirrored() : plane
                for turn in Self.turns { copyViews.append(SceneGrid(SceneSignature(facing.turned(turn)))) }
            }
        }
        self.views = views
        self.copyViews = copyViews
    }
}

/// What a photo offered as proof is, next to a habit's reference photos.
public enum SceneVerdict: Sendable, Equatable {
    /// It shows the place the references show; `score` is the best alignment's.
    case samePlace(score: Double)
    /// It is a copy of reference `index` (cropped, turned, re-exposed or mirrored), not a new photo.
    case copy(index: Int, score: Double)
    /// It does not show that place; `score` is the best any reference reached.
    case otherPlace(score: Double)
}

/// Tells whether a photo shows the same place as reference photos, and whether it is a copy of one.
///
/// Thresholds measured by `morningproof-calibrate --scenes` on the calibration rooms (docs/cli.md).
public struct SceneMatcher: Sendable {
    /// The score at or above which a photo shows a reference's place.
    public var samePlaceScore: Double
    /// The score at or above which a photo that lies inside a reference is a copy of it.
    public var copyScore: Double
    /// The share of the photo that must lie on the reference for it to be a copy: a second view of the
    /// same room always shows some of the room the reference does not.
    public var copyCoverage: Double
    /// How far a photo may be shifted against a reference, as a share of the reference's long side.
    public var maxShift: Double
    /// The share of the reference that must overlap the photo for a match to count.
    public var minimumOverlap: Double

    public init(
        samePlaceScore: Double = 0.5, copyScore: Double = 0.7, copyCoverage: Double = 0.93, maxShift: Double = 0.3,
        minimumOverlap: Double = 0.5
    ) {
        self.samePlaceScore = samePlaceScore
        self.copyScore = copyScore
        self.copyCoverage = copyCoverage
        self.maxShift = maxShift
        self.minimumOverlap = minimumOverlap
    }

    /// The verdict on `probe` against `references` (none: `.samePlace` with score 1, nothing to match).
    public func compare(_ probe: SceneProbe, with references: [SceneSignature]) -> SceneVerdict {
        guard !references.isEmpty else { return .samePlace(score: 1) }
        let grids = references.map(SceneGrid.init)
        for (index, reference) in grids.enumerated() {
            if let copy = copyAlignment(probe, reference), copy.score >= copyScore {
                return .copy(index: index, score: copy.score)
            }
        }
        let best = grids.map { alignment(probe, $0).score }.max() ?? -1
        return best >= samePlaceScore ? .samePlace(score: best) : .otherPlace(score: best)
    }

    /// The best alignment of `probe` with `reference` over its scales and shifts.
    public func alignment(_ probe: SceneProbe, _ reference: SceneSignature) -> SceneAlignment {
        alignment(probe, SceneGrid(reference))
    }

    /// The best alignment of `probe`, turned or mirrored, lying inside `reference` (`copyCoverage`):
    /// a copy when its score reaches `copyScore`; nil when no placement lies inside.
    public func copyAlignment(_ probe: SceneProbe, _ reference: SceneSignature) -> SceneAlignment? {
        copyAlignment(probe, SceneGrid(reference))
    }

    func alignment(_ probe: SceneProbe, _ reference: SceneGrid) -> SceneAlignment {
        var best = SceneAlignment(score: -1, photoCovered: 0)
        for view in probe.views {
            if let found = reference.bestAlignment(of: view, maxShift: maxShift, minimumOverlap: minimumOverlap),
                found.score > best.score
            {
                best = found
            }
        }
        return best
    }

    func copyAlignment(_ probe: SceneProbe, _ reference: SceneGrid) -> SceneAlignment? {
        var best: SceneAlignment?
        for view in probe.copyViews {
            guard
                let found = reference.bestAlignment(
                    of: view, maxShift: maxShift, minimumOverlap: minimumOverlap, minimumCovered: copyCoverage),
                found.score > best?.score ?? -1
            else { continue }
            best = found
        }
        return best
    }
}

/// A signature's values as floats, laid out for the alignment search.
struct SceneGrid: Sendable {
    let columns: Int
    let rows: Int
    let levels: [Float]

    init(_ signature: SceneSignature) {
        columns = signature.columns
        rows = signature.rows
        levels = signature.levels
    }

    /// The best correlation of `photo` placed on this grid at whole-cell shifts up to `maxShift` of the
    /// long side, among placements where at least `minimumOverlap` of this grid and `minimumCovered` of
    /// the photo overlap; nil when no placement qualifies.
    func bestAlignment(of photo: SceneGrid, maxShift: Double, minimumOverlap: Double, minimumCovered: Double = 0)
        -> SceneAlignment?
    {
        let bins = SceneSignature.bins
        let reach = Int((maxShift * Double(max(columns, rows))).rounded())
        var best: SceneAlignment?
        levels.withUnsafeBufferPointer { r in
            photo.levels.withUnsafeBufferPointer { p in
                for dy in -reach...reach {
                    for dx in -reach...reach {
                        // Photo cell (x, y) lies on reference cell (x + dx, y + dy).
                        let y0 = max(0, -dy)
                        let y1 = min(photo.rows, rows - dy)
                        let x0 = max(0, -dx)
                        let x1 = min(photo.columns, columns - dx)
                        guard y1 > y0, x1 > x0 else { continue }
                        let cells = (y1 - y0) * (x1 - x0)
                        let covered = Double(cells) / Double(max(1, photo.columns * photo.rows))
                        guard Double(cells) >= minimumOverlap * Double(columns * rows), covered >= minimumCovered
                        else { continue }
                        var sa = 0.0
                        var sb = 0.0
                        var saa = 0.0
                        var sbb = 0.0
                        var sab = 0.0
                        let run = (x1 - x0) * bins
                        for y in y0..<y1 {
                            let pa = (y * photo.columns + x0) * bins
                            let rb = ((y + dy) * columns + x0 + dx) * bins
                            var a: Float = 0
                            var b: Float = 0
                            var aa: Float = 0
                            var bb: Float = 0
                            var ab: Float = 0
                            for k in 0..<run {
                                let u = p[pa + k]
                                let v = r[rb + k]
                                a += u
                                b += v
                                aa += u * u
                                bb += v * v
                                ab += u * v
                            }
                            sa += Double(a)
                            sb += Double(b)
                            saa += Double(aa)
                            sbb += Double(bb)
                            sab += Double(ab)
                        }
                        let n = Double(cells * bins)
                        let spread = (saa - sa * sa / n) * (sbb - sb * sb / n)
                        guard spread > 1e-12 else { continue }
                        let score = (sab - sa * sb / n) / spread.squareRoot()
                        if score > best?.score ?? -2 { best = SceneAlignment(score: score, photoCovered: covered) }
                    }
                }
            }
        }
        return best
    }
}
