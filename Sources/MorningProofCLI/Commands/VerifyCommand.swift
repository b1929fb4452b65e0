import ArgumentParser
import Foundation
import MorningProofCore
import MorningProofSQLite
import MorningProofService
import MorningProofStoreContract
import PhotoVerification

/// `morningproof verify PHOTO...`: is the bed made? Optionally records the day as proof.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Say whether each photo shows a made bed, and optionally record it as a habit's proof.",
        discussion: """
            Each photo is decoded (JPEG, PNG, HEIC or WebP, by content), shrunk to 256 pixels on its long side and \
            measured: large smooth areas, straight horizontal and vertical edges, colour variety, texture in \
            the centre and colourfulness. A logistic model calibrated on labelled room photos turns these \
            into a probability; at or above the threshold (default 0.5) the bed counts as made. Each \
            verdict names the two or three features that drove it.

            With --habit NAME (a habit of kind photo), a made photo records today as done, with its \
            evidence: SHA-256, a 64-bit perceptual hash, the EXIF capture time, verdict and features. A \
            photo that already proved another day (the same file, or a re-encoded, resized, mirrored, \
            upside-down or inverted copy), or whose EXIF capture time falls on another day, is refused \
            and nothing is stored. A photo \
            without a capture time is accepted, and the output says so.

            Exit codes: 0 every photo made, 1 any not made or refused, 65 a photo is damaged or not an \
            image, 66 a photo is missing (the other photos are still judged and reported).

            Examples:
              morningproof verify bedroom.jpg
              morningproof verify --json *.jpg --jobs 4
              morningproof verify --habit "Make bed" ~/Pictures/today.jpg
            """)

    @Argument(help: "The photos to judge (JPEG, PNG, HEIC or WebP).")
    var photos: [String]

    @Option(help: "Record a made photo as today's proof for this habit (kind photo).")
    var habit: String?

    @Option(help: ArgumentHelp("Use this bed model JSON instead of the built-in one.", valueName: "path"))
    var model: String?

    @Option(help: "Probability of \"made\" at or above which a bed counts as made (0 to 1, default the model's).")
    var threshold: Double?

    @Option(help: "Photos judged at once (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Refuse images larger than this many pixels, read from the header.")
    var maxPixels: Int = ImageDecoder.defaultMaxPixels

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try validating {
            if let threshold, !(threshold > 0 && threshold < 1) {
                throw MorningProofError.usage("--threshold must be between 0 and 1, not \(threshold)")
            }
            if let jobs, jobs < 1 { throw MorningProofError.usage("--jobs must be at least 1, not \(jobs)") }
            if maxPixels < 1 { throw MorningProofError.usage("--max-pixels must be at least 1") }
        }
    }

    func run() async throws {
        // Check the habit and the model before any work, so a usage error changes nothing.
        var proofs: (service: ProofService, session: Session, habit: Habit)?
        if let habit {
            let opened = try await global.session()
            let service = ProofService(database: opened.database, clock: opened.clock)
            proofs = await (service, opened, try service.photoHabit(named: habit))
        }
        let verifier = BedVerifier(model: try model.map(BedModel.load(path:)) ?? .builtIn, threshold: threshold)
        let judging = PhotoJudging(verifier: verifier, maxPixels: maxPixels)
        let workers = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let inputs = photos.map { PhotoInput.file(path: $0) }
        var reports: [PhotoReport] = []
        var progress: HabitProgress?
        if let proofs {
            // Judged at once, then offered in the order given.
            let results = try await proofs.service.prove(
                inputs, habit: proofs.habit, now: proofs.session.now, judging: judging, workers: workers)
            for (path, result) in zip(photos, results) {
                let proof = try? result.get()
                if let proof { progress = proof.progress }
                reports.append(
                    PhotoReport(
                        path: path, judgement: result.map(\.judgement), habit: proofs.habit, day: proofs.session.today,
                        proof: proof?.outcome))
            }
        } else {
            // A verdict alone needs no SHA-256.
            let judgements = judging.judge(inputs, workers: workers, fingerprint: false)
            reports = zip(photos, judgements).map { PhotoReport(path: $0, judgement: $1) }
        }
        if let proofs, progress == nil {
            // No photo could be judged: the streak as it stands.
            progress = try await HabitService(database: proofs.session.database, clock: proofs.session.clock)
                .show(proofs.habit, now: proofs.session.now)
        }
        try print(reports, habit: proofs?.habit, streak: progress?.timeline.currentStreak)
        if let code = reports.compactMap(\.errorCode).first { throw ExitCode(code) }
        if reports.contains(where: { $0.made == false || $0.proofRefused != nil }) { throw ExitCode(1) }
    }

    private func print(_ reports: [PhotoReport], habit: Habit?, streak: Int?) throws {
        if global.json {
            return try Console.json(reports.map { $0.json(streak: streak) })
        }
        for report in reports { report.lines.forEach(Console.outStyled) }
        if let habit, let streak {
            Console.out("\(habit.name): current streak \(streak) \(streak == 1 ? "day" : "days").")
        }
    }
}
