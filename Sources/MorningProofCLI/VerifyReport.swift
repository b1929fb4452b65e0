import Foundation
import MorningProofCore
import MorningProofService
import MorningProofSQLite
import MorningProofStoreContract
import PhotoVerification

/// One photo's outcome in `morningproof verify`: its verdict (or why it could not be read) and,
/// with --habit, what happened to it as proof. Data and formatting only: the proof is offered by
/// `ProofService` before the report is made.
struct PhotoReport {
    let file: String
    let judgement: PhotoJudgement?
    /// Why the photo could not be judged, and the exit code that stands for it.
    let error: (message: String, code: Int32)?
    /// With --habit: the habit and the day photos are offered for.
    let habit: Habit?
    let day: LocalDay?
    /// What happened to a made photo offered as proof; nil when none was offered.
    let proof: PhotoProofOutcome?

    init(
        path: String, judgement: Result<PhotoJudgement, any Error>, habit: Habit? = nil, day: LocalDay? = nil,
        proof: PhotoProofOutcome? = nil
    ) {
        file = path
        self.habit = habit
        self.day = day
        self.proof = proof
        switch judgement {
        case .success(let value):
            self.judgement = value
            error = nil
        case .failure(let failure):
            self.judgement = nil
            error = ExitStatus.of(failure) ?? ("\(path): \(failure)", MorningProofError.Kind.ioError.exitCode)
        }
    }

    var made: Bool? { judgement?.verdict.made }
    /// The read error without the file name the decoder puts in front.
    var reason: String {
        let message = error?.message ?? "unreadable"
        return message.hasPrefix(file + ": ") ? String(message.dropFirst(file.count + 2)) : message
    }
    var errorCode: Int32? { error?.code }
    var proofRefused: String? { proof?.refusal }

    /// What text mode prints: the verdict line, then the proof line with --habit.
    var lines: [String] {
        let file = UserText.visible(self.file)
        guard let judgement else { return ["\(file): cannot judge: \(UserText.visible(reason))"] }
        let verdict = judgement.verdict
        let word = verdict.made ? Console.styled("made", "32") : Console.styled("not made", "31")
        var lines = [
            "\(file): \(word) (confidence \(String(format: "%.2f", verdict.confidence))): "
                + verdict.reasons.joined(separator: "; ")
        ]
        guard let habit, let day else { return lines }
        if !verdict.made {
            lines.append("  \(habit.shownName): not recorded (the bed is not made).")
        } else if let proof {
            if let refusal = proof.refusal {
                lines.append("  \(habit.shownName): proof refused: \(refusal). Nothing recorded.")
            } else {
                let taken = proof.captureTime.map { "taken \($0)" } ?? "no capture time in the photo, accepted as is"
                lines.append("  \(habit.shownName): \(Self.describe(proof.recorded, day: day)) (\(taken)).")
            }
        }
        return lines
    }

    static func describe(_ outcome: RecordOutcome?, day: LocalDay) -> String {
        switch outcome {
        case .recorded, .replaced: return "recorded \(day) as done by photo"
        case .unchanged: return "\(day) was already done; photo kept as evidence"
        case .keptManual: return "\(day) keeps its manual entry; photo kept as evidence"
        case .superseded: return "\(day) was changed later; photo kept as evidence"
        case nil: return "not recorded"
        }
    }

    func json(streak: Int?) -> VerifyJSON {
        guard let judgement else { return VerifyJSON(file: file, error: error?.message ?? "unreadable") }
        let verdict = judgement.verdict
        var json = VerifyJSON(file: file)
        json.made = verdict.made
        json.confidence = (verdict.confidence * 1000).rounded() / 1000
        json.reasons = verdict.reasons
        json.width = judgement.info.width
        json.height = judgement.info.height
        json.orientation = judgement.info.orientation
        if let habit, let day {
            json.habit = habit.name
            json.day = day.description
            json.recorded = proof?.refusal == nil && proof?.recorded != nil
            json.proofRefused = proof?.refusal
            json.captureTime = proof?.captureTime
            if verdict.made, proof?.refusal == nil, proof?.captureTime == nil {
                json.note = "no capture time in the photo; accepted as is"
            }
            json.currentStreak = streak
        }
        return json
    }
}

/// `morningproof verify --json`: one object per photo.
struct VerifyJSON: Encodable {
    var file: String
    var error: String?
    var made: Bool?
    var confidence: Double?
    var reasons: [String]?
    var width: Int?
    var height: Int?
    var orientation: Int?
    var habit: String?
    var day: String?
    var recorded: Bool?
    var proofRefused: String?
    var captureTime: String?
    var note: String?
    var currentStreak: Int?
}
