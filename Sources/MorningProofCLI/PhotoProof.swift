import Foundation
import MorningProofCore
import MorningProofStore
import PhotoVerification

/// Turns a made verdict into a habit's proof: fingerprints, capture-day check, and the store write.
struct PhotoProof {
    /// Perceptual hashes this close (bits out of 64) count as the same picture: a re-encoded or
    /// resized copy lands within 0 to 3; different photos of a scene are usually 10 or more apart.
    static let maxHashDistance = 6

    let session: Session
    let habit: Habit

    /// What happened to one photo offered as proof.
    struct Result {
        var recorded: RecordOutcome?
        var refusal: String?
        /// The EXIF capture time as ISO 8601 with offset, or nil when the photo has none.
        var captureTime: String?
    }

    /// Records `judgement` of the photo at `path` as today's proof, or says why it is refused.
    func offer(path: String, judgement: PhotoJudgement) throws -> Result {
        let day = session.today
        var result = Result()
        if let raw = judgement.info.captureTime {
            guard let taken = Self.captureInstant(raw, offset: judgement.info.captureOffset, clock: session.clock)
            else {
                result.refusal = "its EXIF capture time \"\(raw)\" is not a date"
                return result
            }
            result.captureTime = ISOInstant.format(taken.instant, in: taken.zone)
            let takenDay = session.clock.day(at: taken.instant)
            if takenDay != day {
                result.refusal = "it was taken on \(takenDay), not \(day)"
                return result
            }
        }
        let sha = try Self.sha256(path: path)
        let evidence = PhotoEvidence(
            sha256: sha, perceptualHash: judgement.hash.signedValue, captureTime: result.captureTime,
            verdict: "made", confidence: judgement.verdict.confidence,
            features: Self.featuresJSON(judgement.verdict.features), recordedAt: session.now)
        let entry = Entry(
            habitID: habit.id, day: day, status: .done, source: .photo, recordedAt: session.now,
            zone: session.clock.zoneIdentifier)
        switch try session.database.recordProof(entry, evidence: evidence, maxDistance: Self.maxHashDistance) {
        case .duplicate(let match):
            result.refusal =
                match.sameFile
                ? "this photo already proved \(match.day)"
                : "this photo already proved \(match.day) (a copy of the same picture, \(match.distance) of 64 bits differ)"
        case .recorded(let outcome):
            result.recorded = outcome
        }
        return result
    }

    /// SHA-256 of a file's bytes as lowercase hex.
    static func sha256(path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MorningProofError.ioError("cannot read \(path) to fingerprint it")
        }
        return SHA256Digest.hex(data)
    }

    /// The moment an EXIF "YYYY:MM:DD HH:MM:SS" local time names: in its OffsetTimeOriginal ("+01:00")
    /// when given, else in the configured zone. Nil when the text is not a real date and time.
    static func captureInstant(_ raw: String, offset: String?, clock: DayClock) -> (instant: Date, zone: TimeZone)? {
        let parts = raw.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        guard parts.count == 6 else { return nil }
        var zone = clock.timeZone
        if let offset, let seconds = offsetSeconds(offset), let fixed = TimeZone(secondsFromGMT: seconds) {
            zone = fixed
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(
            year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5])
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return (date, zone)
    }

    /// "+05:30" or "-08:00" as seconds east of UTC.
    static func offsetSeconds(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let sign = trimmed.first, sign == "+" || sign == "-" else { return nil }
        let fields = trimmed.dropFirst().split(separator: ":").compactMap { Int($0) }
        guard fields.count == 2, (0...14).contains(fields[0]), (0..<60).contains(fields[1]) else { return nil }
        let seconds = fields[0] * 3600 + fields[1] * 60
        return sign == "-" ? -seconds : seconds
    }

    static func featuresJSON(_ features: [String: Double]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(features)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
