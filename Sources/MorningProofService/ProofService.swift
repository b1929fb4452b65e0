import Foundation
import MorningProofCore
import MorningProofStoreContract
import PhotoVerification

/// What happened to one photo offered as a habit's proof for a day.
public struct PhotoProofOutcome: Sendable, Equatable {
    /// The day the photo was offered for: today on the service's clock.
    public var day: LocalDay
    /// What the store did with the entry; nil when the proof was refused.
    public var recorded: RecordOutcome?
    /// Why the proof was refused (a clause: "it was taken on 2026-11-18, not 2026-11-20"); nil when recorded.
    public var refusal: String?
    /// The EXIF capture time as ISO 8601 with its offset, or nil when the photo has none.
    public var captureTime: String?

    public init(day: LocalDay, recorded: RecordOutcome? = nil, refusal: String? = nil, captureTime: String? = nil) {
        self.day = day
        self.recorded = recorded
        self.refusal = refusal
        self.captureTime = captureTime
    }
}

/// A photo offered as a habit's proof, and the habit afterwards: what `verify --habit` and
/// `POST /api/habits/{id}/proof` report.
public struct PhotoProof: Sendable {
    /// What a proof came to, for a front end to answer with (the server: 201, 200 or 422).
    public enum Kind: Sendable, Equatable {
        /// This photo recorded the day as done.
        case recordedNow
        /// The day was done already (or keeps its manual entry, or was changed later): the photo is
        /// kept as evidence.
        case alreadyRecorded
        /// A rule refused the photo (a repeat of another day's, taken on another day): nothing stored.
        case refused(reason: String)
        /// The photo was judged not made: it was not offered, nothing stored.
        case notMade
    }

    /// The photo habit the photo was offered to.
    public var habit: Habit
    /// The day the photo was offered for: today on the service's clock.
    public var day: LocalDay
    /// What the verifier said of the photo.
    public var judgement: PhotoJudgement
    /// What happened to the day; nil when the photo was judged not made (nothing stored).
    public var outcome: PhotoProofOutcome?
    /// The habit judged as of `day`, after the proof.
    public var progress: HabitProgress

    public var kind: Kind {
        guard let outcome else { return .notMade }
        if let refusal = outcome.refusal { return .refused(reason: refusal) }
        switch outcome.recorded {
        case .recorded, .replaced: return .recordedNow
        default: return .alreadyRecorded
        }
    }
}

/// Photo proofs: a photo is judged, and a made one becomes today's entry of a photo habit, with its
/// evidence, when `ProofPolicy` allows it. Every front end (CLI, server) offers photos through here.
public struct ProofService: Sendable {
    public let database: any AccountData
    public let clock: DayClock

    public init(database: any AccountData, clock: DayClock) {
        self.database = database
        self.clock = clock
    }

    /// The habit `name` names, which must be a photo habit to take photo proofs.
    public func photoHabit(named name: String) async throws -> Habit {
        try photoHabit(try await database.findHabit(named: name))
    }

    /// `habit`, when it is a photo habit; refused otherwise (`not_a_photo_habit`: the request is
    /// well formed, the habit is of another kind; exit 64, HTTP 422).
    public func photoHabit(_ habit: Habit) throws -> Habit {
        guard habit.kind == .photo else {
            throw MorningProofError(
                .refused, code: "not_a_photo_habit",
                "\(habit.name) is a \(habit.kind.rawValue) habit\(hint: .photoHabitNeeded)")
        }
        return habit
    }

    /// The action of `POST /api/habits/{id}/proof`: decodes and judges `photo` on `cpu`, then checks
    /// that habit `id` is a photo habit (not found, or a usage error: a photo that cannot be read is
    /// told first), offers the photo for the day `now` falls on, and returns what happened with the
    /// habit's progress.
    public func prove(
        _ photo: PhotoInput, habitID id: Int64, now: Date, judging: PhotoJudging = .upload, cpu: any CPUWork
    ) async throws -> PhotoProof {
        // The habit first: another account's, or one that is not a photo habit, is refused before a
        // photo that may cost seconds of CPU is decoded.
        let habit = try photoHabit(try await HabitService(database: database, clock: clock).habit(id: id))
        let references = try await database.referencePhotos(habitID: habit.id)
        let earlier = try await database.proofScenes(limit: Self.copyCheckDepth)
        let day = clock.day(at: now)
        let (judgement, refusal) = try await cpu.run {
            let judgement = try judging.judge(photo, fingerprint: true, scene: true)
            return (
                judgement,
                Self.sceneRefusal(judgement, references: references, earlier: earlier, habitID: habit.id, day: day)
            )
        }
        return try await prove(judgement, habit: habit, now: now, sceneRefusal: refusal)
    }

    /// The action of `verify --habit`: judges `photos` at once on at most `workers` threads, then
    /// offers each made one in their order as the proof of the photo habit `habit` (`photoHabit(named:)`,
    /// checked before any photo is judged). Each result is the proof, or why that photo could not be
    /// judged; a failure of the store is thrown.
    public func prove(
        _ photos: [PhotoInput], habit: Habit, now: Date, judging: PhotoJudging, workers: Int
    ) async throws -> [Result<PhotoProof, any Error>] {
        let habit = try photoHabit(habit)
        let references = try await database.referencePhotos(habitID: habit.id)
        let day = clock.day(at: now)
        var proofs: [Result<PhotoProof, any Error>] = []
        for judged in judging.judge(photos, workers: workers, fingerprint: true, scene: true) {
            switch judged {
            case .success(let judgement):
                // Read for each photo: one offered before it in this run is an earlier proof too.
                let earlier = try await database.proofScenes(limit: Self.copyCheckDepth)
                let refusal = Self.sceneRefusal(
                    judgement, references: references, earlier: earlier, habitID: habit.id, day: day)
                proofs.append(.success(try await prove(judgement, habit: habit, now: now, sceneRefusal: refusal)))
            case .failure(let error): proofs.append(.failure(error))
            }
        }
        return proofs
    }

    /// Checks that habit `id` is a photo habit (not found, or a usage error), offers `judgement` for
    /// the day `now` falls on, and returns what happened with the habit's progress.
    func prove(_ judgement: PhotoJudgement, habitID id: Int64, now: Date, sceneRefusal: String? = nil) async throws
        -> PhotoProof
    {
        let habit = try await HabitService(database: database, clock: clock).habit(id: id)
        return try await prove(judgement, habit: habit, now: now, sceneRefusal: sceneRefusal)
    }

    /// Offers `judgement` as the proof of the photo habit `habit`, and returns what happened with the
    /// habit's progress afterwards.
    func prove(_ judgement: PhotoJudgement, habit: Habit, now: Date, sceneRefusal: String? = nil) async throws
        -> PhotoProof
    {
        let habit = try photoHabit(habit)
        let outcome = try await offer(judgement, habit: habit, now: now, sceneRefusal: sceneRefusal)
        let day = clock.day(at: now)
        let progress = try await database.progress(of: habit, today: day, need: .summary)
        return PhotoProof(habit: habit, day: day, judgement: judgement, outcome: outcome, progress: progress)
    }

    /// Offers `judgement` as the proof of `habit` for the day `now` falls on: records the day as done
    /// with the photo's evidence and scene, or says why it is refused (`sceneRefusal`: why its scene
    /// refuses it, `sceneRefusal(_:references:earlier:habitID:day:)`). A photo judged not made is not
    /// offered: nil, and nothing is stored.
    func offer(_ judgement: PhotoJudgement, habit: Habit, now: Date, sceneRefusal: String? = nil) async throws
        -> PhotoProofOutcome?
    {
        guard judgement.verdict.made else { return nil }
        guard let sha256 = judgement.sha256 else {
            preconditionFailure("a photo offered as proof must be verified with fingerprint: true")
        }
        let day = clock.day(at: now)
        var outcome = PhotoProofOutcome(day: day)
        switch ProofPolicy.decide(
            captureTime: judgement.info.captureTime, captureOffset: judgement.info.captureOffset, today: day,
            clock: clock)
        {
        case .refused(let reason, let capture):
            outcome.captureTime = capture?.text
            outcome.refusal = reason
            return outcome
        case .accepted(let capture):
            outcome.captureTime = capture?.text
        }
        if let refusal = sceneRefusal {
            outcome.refusal = refusal
            return outcome
        }
        let evidence = PhotoEvidence(
            sha256: sha256, perceptualHash: judgement.hash.signedValue, captureTime: outcome.captureTime,
            verdict: "made", confidence: judgement.verdict.confidence,
            features: Self.featuresJSON(judgement.verdict.features), recordedAt: now)
        let entry = Entry(
            habitID: habit.id, day: day, status: .done, source: .photo, recordedAt: now, zone: clock.zoneIdentifier)
        switch try await database.recordProof(entry, evidence: evidence, maxDistance: ProofPolicy.maxHashDistance) {
        case .duplicate(let match):
            outcome.refusal = ProofPolicy.repeatReason(
                of: match.day, sameFile: match.sameFile, distance: match.distance)
        case .recorded(let recorded):
            outcome.recorded = recorded
            if let probe = judgement.scene {
                try await database.keepProofScene(
                    ProofScene(
                        habitID: habit.id, day: day, signature: probe.signature.data,
                        perceptualHash: judgement.hash.signedValue), at: now)
            }
        }
        return outcome
    }

    /// Every measured feature as a JSON object with sorted keys, as the evidence stores them.
    static func featuresJSON(_ features: [String: Double]) -> String {
        (try? SortedJSON.string(features)) ?? "{}"
    }
}
