import Foundation

/// The rules a made photo must pass before it proves a day: it was taken on that day, and it does
/// not repeat the photo of another day. Pure: the store applies the repeat check in its write.
public enum ProofPolicy {
    /// Perceptual hashes this close (bits out of 64) count as the same picture: a re-encoded or
    /// resized copy lands within 0 to 3 (mirrored, upside down or inverted too: `hashDistance`);
    /// different photos of a scene are usually 10 or more apart.
    public static let maxHashDistance = 6

    /// When a photo was taken, as the camera wrote it.
    public struct Capture: Sendable, Equatable {
        public var instant: Date
        /// The zone the EXIF time was written in: its OffsetTimeOriginal, else the clock's zone.
        public var zone: TimeZone

        public init(instant: Date, zone: TimeZone) {
            self.instant = instant
            self.zone = zone
        }

        /// ISO 8601 with the offset it was taken at ("2026-11-18T07:45:00+01:00").
        public var text: String { ISOInstant.format(instant, in: zone) }
    }

    /// What the capture-day rule says about a photo.
    public enum Decision: Sendable, Equatable {
        /// The photo may prove today; `capture` is nil when it has no capture time (accepted as is).
        case accepted(capture: Capture?)
        /// The photo may not prove today, for `reason` (a clause: "it was taken on ..."); `capture`
        /// is its capture time when it has a readable one.
        case refused(reason: String, capture: Capture?)
    }

    /// Judges a photo's EXIF DateTimeOriginal (`captureTime`, "YYYY:MM:DD HH:MM:SS") and
    /// OffsetTimeOriginal (`captureOffset`, "+01:00") against `today` on `clock`.
    public static func decide(captureTime: String?, captureOffset: String?, today: LocalDay, clock: DayClock)
        -> Decision
    {
        guard let raw = captureTime else { return .accepted(capture: nil) }
        guard let capture = captureInstant(raw, offset: captureOffset, clock: clock) else {
            return .refused(reason: "its EXIF capture time \"\(raw)\" is not a date", capture: nil)
        }
        let takenDay = clock.day(at: capture.instant)
        if takenDay != today {
            return .refused(reason: "it was taken on \(takenDay), not \(today)", capture: capture)
        }
        return .accepted(capture: capture)
    }

    /// A photo that proved an earlier day, as stored.
    public struct EarlierProof: Sendable, Equatable {
        public var day: LocalDay
        public var habitID: Int64
        public var sha256: String
        public var perceptualHash: Int64

        public init(day: LocalDay, habitID: Int64, sha256: String, perceptualHash: Int64) {
            self.day = day
            self.habitID = habitID
            self.sha256 = sha256
            self.perceptualHash = perceptualHash
        }
    }

    /// The earlier proof a photo repeats, if any: a byte-identical file first, else the picture whose
    /// perceptual hash is closest within `maxDistance` bits; on a tie the first in `earlier` (the
    /// store lists them by day, oldest first).
    public static func repeated(
        sha256: String, perceptualHash: Int64, among earlier: [EarlierProof], maxDistance: Int
    ) -> EvidenceMatch? {
        var best: EvidenceMatch?
        for proof in earlier {
            let distance = hashDistance(proof.perceptualHash, perceptualHash)
            let sameFile = proof.sha256 == sha256
            guard sameFile || distance <= maxDistance else { continue }
            if let current = best,
                (current.sameFile && !sameFile) || (current.sameFile == sameFile && current.distance <= distance)
            {
                continue
            }
            best = EvidenceMatch(day: proof.day, habitID: proof.habitID, sameFile: sameFile, distance: distance)
        }
        return best
    }

    /// Bits apart of two difference hashes, the closest of the picture as it is and mirrored,
    /// upside down or inverted (a negative): a difference hash compares each of 9 cells in a row
    /// with its right neighbour, so mirroring reverses each row's 8 bits and flips them, turning it
    /// upside down reverses the order of the rows, and inverting brightness flips every bit.
    /// Without this, yesterday's photo mirrored or as a negative proved today.
    static func hashDistance(_ earlier: Int64, _ photo: Int64) -> Int {
        let (stored, offered) = (UInt64(bitPattern: earlier), UInt64(bitPattern: photo))
        var variants: [UInt64] = []
        for flipped in [offered, offered.byteSwapped] {
            let mirrored = ~reversingBitsInEachByte(flipped)
            variants += [flipped, ~flipped, mirrored, ~mirrored]
        }
        return variants.map { ($0 ^ stored).nonzeroBitCount }.min() ?? 64
    }

    /// `bits` with the order of the 8 bits in each byte (each row of a difference hash) reversed.
    static func reversingBitsInEachByte(_ bits: UInt64) -> UInt64 {
        var value = bits
        value = ((value & 0xF0F0_F0F0_F0F0_F0F0) >> 4) | ((value & 0x0F0F_0F0F_0F0F_0F0F) << 4)
        value = ((value & 0xCCCC_CCCC_CCCC_CCCC) >> 2) | ((value & 0x3333_3333_3333_3333) << 2)
        value = ((value & 0xAAAA_AAAA_AAAA_AAAA) >> 1) | ((value & 0x5555_5555_5555_5555) << 1)
        return value
    }

    /// Why a photo that repeats the proof of `day` is refused: the same file (`sameFile`), or a copy
    /// whose perceptual hash differs in `distance` of 64 bits.
    public static func repeatReason(of day: LocalDay, sameFile: Bool, distance: Int) -> String {
        sameFile
            ? "this photo already proved \(day)"
            : "this photo already proved \(day) (a copy of the same picture, \(distance) of 64 bits differ)"
    }

    /// The moment an EXIF "YYYY:MM:DD HH:MM:SS" local time names: in its OffsetTimeOriginal ("+01:00")
    /// when given, else in the clock's zone. Nil when the text is not a real date and time.
    static func captureInstant(_ raw: String, offset: String?, clock: DayClock) -> Capture? {
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
        return Capture(instant: date, zone: zone)
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
}

/// Earlier evidence that a new photo repeats.
public struct EvidenceMatch: Sendable, Equatable {
    /// The day the earlier photo proved, and the habit it proved it for.
    public var day: LocalDay
    public var habitID: Int64
    /// True when the files are byte-identical; otherwise the pictures' hashes are close.
    public var sameFile: Bool
    /// Bits differing between the perceptual hashes (0 to 64).
    public var distance: Int

    public init(day: LocalDay, habitID: Int64, sameFile: Bool, distance: Int) {
        self.day = day
        self.habitID = habitID
        self.sameFile = sameFile
        self.distance = distance
    }
}
