import Foundation
import Testing

@testable import MorningProofCore

@Suite struct ProofPolicyTests {
    let utc = clock("UTC")

    @Test func aPhotoWithoutACaptureTimeIsAcceptedAsIs() {
        #expect(
            ProofPolicy.decide(captureTime: nil, captureOffset: nil, today: day("2026-11-20"), clock: utc)
                == .accepted(capture: nil))
    }

    @Test func aPhotoTakenTodayIsAcceptedWithItsInstantAndOffset() throws {
        let decision = ProofPolicy.decide(
            captureTime: "2026:11:18 07:45:00", captureOffset: "+01:00", today: day("2026-11-18"), clock: utc)
        guard case .accepted(let capture?) = decision else {
            Issue.record("expected an accepted capture, got \(decision)")
            return
        }
        #expect(capture.instant == instant("2026-11-18T06:45:00Z"))
        #expect(capture.text == "2026-11-18T07:45:00+01:00")
    }

    @Test func withoutAnOffsetTheTimeIsReadInTheClocksZone() {
        let newYork = clock("America/New_York")
        let decision = ProofPolicy.decide(
            captureTime: "2026:11:20 06:30:00", captureOffset: nil, today: day("2026-11-20"), clock: newYork)
        #expect(decision == .accepted(capture: .init(instant: instant("2026-11-20T11:30:00Z"), zone: newYork.timeZone)))
        #expect(
            ProofPolicy.decide(
                captureTime: "2026:11:20 06:30:00", captureOffset: nil, today: day("2026-11-20"), clock: utc
            )
            .capture?.text == "2026-11-20T06:30:00Z")
    }

    @Test func aPhotoTakenOnAnotherDayIsRefusedWithItsCaptureTime() {
        let decision = ProofPolicy.decide(
            captureTime: "2026:11:18 07:45:00", captureOffset: "+01:00", today: day("2026-11-20"), clock: utc)
        #expect(decision.refusal == "it was taken on 2026-11-18, not 2026-11-20")
        #expect(decision.capture?.text == "2026-11-18T07:45:00+01:00")
    }

    @Test func theDayStartDecidesWhichDayAnEarlyPhotoCountsFor() {
        // 02:00 with days starting at 04:00 is still the previous day.
        let late = clock("UTC", dayStart: "04:00")
        let decision = ProofPolicy.decide(
            captureTime: "2026:11:21 02:00:00", captureOffset: nil, today: day("2026-11-20"), clock: late)
        #expect(decision.refusal == nil)
    }

    @Test(arguments: ["2026:02:30 07:00:00", "yesterday", "2026:11:18 25:00:00", "2026:11:18"])
    func aCaptureTimeThatIsNotADateIsRefused(_ raw: String) {
        let decision = ProofPolicy.decide(
            captureTime: raw, captureOffset: nil, today: day("2026-11-18"), clock: utc)
        #expect(decision == .refused(reason: "its EXIF capture time \"\(raw)\" is not a date", capture: nil))
    }

    @Test func aBadOffsetFallsBackToTheClocksZone() {
        let decision = ProofPolicy.decide(
            captureTime: "2026:11:18 07:45:00", captureOffset: "+25:00", today: day("2026-11-18"), clock: utc)
        #expect(decision.capture?.text == "2026-11-18T07:45:00Z")
        #expect(ProofPolicy.offsetSeconds("-08:00") == -28_800)
        #expect(ProofPolicy.offsetSeconds(" +05:30 ") == 19_800)
        #expect(ProofPolicy.offsetSeconds("0530") == nil)
    }

    @Test func repeatsNameTheDayTheyAlreadyProved() {
        #expect(
            ProofPolicy.repeatReason(of: day("2026-11-18"), sameFile: true, distance: 0)
                == "this photo already proved 2026-11-18")
        #expect(
            ProofPolicy.repeatReason(of: day("2026-11-18"), sameFile: false, distance: 2)
                == "this photo already proved 2026-11-18 (a copy of the same picture, 2 of 64 bits differ)")
        #expect(ProofPolicy.maxHashDistance == 6)
    }
}

extension ProofPolicy.Decision {
    var refusal: String? {
        if case .refused(let reason, _) = self { return reason }
        return nil
    }
    var capture: ProofPolicy.Capture? {
        switch self {
        case .accepted(let capture), .refused(_, let capture): return capture
        }
    }
}
