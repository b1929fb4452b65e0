import Foundation
import TestFixtures
import Testing

/// Paths of committed sample photos (scripts/make-scenes, scripts/make-sample-images).
private enum Photos {
    static func scene(_ name: String) -> String { SampleImages.path("scenes/\(name)") }
    static func broken(_ name: String) -> String { SampleImages.path("broken/\(name)") }
    static func notPhoto(_ name: String) -> String { SampleImages.path("not-photos/\(name)") }
}

@Suite struct VerifyTests {
    let made = Photos.scene("made-1.jpg")
    let unmade = Photos.scene("unmade-1.jpg")

    @Test func exitCodesFollowTheWorstPhoto() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let allMade = try cli.run(["verify", made, Photos.scene("made-2.jpg")])
        #expect(allMade.status == 0)
        #expect(allMade.stdout.contains("made-1.jpg: made (confidence"))
        #expect(try cli.run(["verify", made, unmade]).status == 1)
        let damaged = try cli.run(["verify", made, Photos.broken("truncated.jpg"), unmade])
        #expect(damaged.status == 65)
        let lines = damaged.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].contains("made-1.jpg: made"))
        #expect(lines[1].contains("truncated.jpg: cannot judge: JPEG data ends early"))
        #expect(lines[2].contains("unmade-1.jpg: not made"))
        let missing = try cli.run(["verify", "/nonexistent/bed.jpg", made])
        #expect(missing.status == 66)
        #expect(missing.stdout.contains("bed.jpg: cannot judge: no such file"))
    }

    @Test func jsonHasOneObjectPerPhotoInInputOrder() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let photos = [
            unmade, made, Photos.broken("text.jpg"), Photos.scene("made-3.jpg"), Photos.scene("unmade-2.jpg"),
            Photos.scene("made-2.jpg"), Photos.scene("unmade-3.jpg"), made,
        ]
        let result = try cli.run(["verify", "--json", "--jobs", "2"] + photos)
        #expect(result.status == 65)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(objects.map { $0["file"] as? String } == photos)
        #expect(objects.map { $0["made"] as? Bool } == [false, true, nil, true, false, true, false, true])
        #expect(Set(objects[1].keys) == ["file", "made", "confidence", "reasons", "width", "height", "orientation"])
        #expect(objects[1]["width"] as? Int == 640 && objects[1]["height"] as? Int == 480)
        #expect((objects[1]["reasons"] as? [String])?.count ?? 0 >= 2)
        #expect(Set(objects[2].keys) == ["file", "error"])
        #expect((objects[2]["error"] as? String)?.contains("plain text") == true)
        let serial = try cli.run(["verify", "--json", "--jobs", "1"] + photos)
        #expect(serial.stdout == result.stdout)
    }

    @Test func badOptionsAreUsageErrors() throws {
        let cli = try CLI()
        defer { cli.remove() }
        #expect(try cli.run(["verify", "--threshold", "1.5", made]).status == 64)
        #expect(try cli.run(["verify", "--jobs", "0", made]).status == 64)
        try cli.run(["habit", "add", "Read", "--kind", "manual"], now: "2026-11-20T08:00:00Z")
        let wrongKind = try cli.run(["verify", "--habit", "Read", made], now: "2026-11-20T08:00:00Z")
        #expect(wrongKind.status == 64)
        #expect(wrongKind.stderr.contains("needs a habit of kind photo"))
        #expect(try cli.run(["verify", "--habit", "Nothing", made], now: "2026-11-20T08:00:00Z").status == 64)
        #expect(try cli.run(["verify", "--model", "/nonexistent.json", made]).status == 66)
    }

    @Test func aMadePhotoRecordsTheDayAndARepeatIsRefused() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try cli.run(["habit", "add", "Make bed", "--kind", "photo"], now: "2026-11-18T07:00:00Z")
        let first = try cli.run(["verify", "--habit", "Make bed", made], now: "2026-11-18T08:00:00Z")
        #expect(first.status == 0)
        #expect(first.stdout.contains("Make bed: recorded 2026-11-18 as done by photo"))
        #expect(first.stdout.contains("no capture time"))
        #expect(first.stdout.contains("current streak 1 day"))

        // The same file the next day: refused, nothing recorded.
        let again = try cli.json(["verify", "--habit", "Make bed", made], now: "2026-11-19T08:00:00Z")
        let refused = try #require((again as? [[String: Any]])?.first)
        #expect(refused["proofRefused"] as? String == "this photo already proved 2026-11-18")
        #expect(refused["recorded"] as? Bool == false)
        #expect(refused["currentStreak"] as? Int == 1)
        #expect(try cli.run(["verify", "--habit", "Make bed", made], now: "2026-11-19T08:00:00Z").status == 1)

        // A smaller, re-encoded copy is caught by the perceptual hash.
        let copy = try cli.run(
            ["verify", "--habit", "Make bed", Photos.scene("made-1-smaller-copy.jpg")], now: "2026-11-19T08:00:00Z")
        #expect(copy.status == 1)
        #expect(copy.stdout.contains("proof refused: this photo already proved 2026-11-18 (a copy"))

        // A different photo of a made bed counts, and the streak grows.
        let other = try cli.run(
            ["verify", "--habit", "Make bed", Photos.scene("made-3.jpg")], now: "2026-11-19T08:00:00Z")
        #expect(other.status == 0)
        #expect(other.stdout.contains("current streak 2 days"))

        // An unmade bed records nothing.
        let messy = try cli.json(["verify", "--habit", "Make bed", unmade], now: "2026-11-20T08:00:00Z")
        let notMade = try #require((messy as? [[String: Any]])?.first)
        #expect(notMade["made"] as? Bool == false)
        #expect(notMade["recorded"] as? Bool == false)
    }

    @Test func exifCaptureTimeMustFallOnTheDayItProves() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let dated = Photos.scene("made-2-exif-2026-11-18.jpg")  // 2026:11:18 07:45:00 +01:00
        try cli.run(["habit", "add", "Make bed", "--kind", "photo"], now: "2026-11-17T07:00:00Z")
        let late = try cli.run(["verify", "--habit", "Make bed", dated], now: "2026-11-20T08:00:00Z")
        #expect(late.status == 1)
        #expect(late.stdout.contains("proof refused: it was taken on 2026-11-18, not 2026-11-20. Nothing recorded."))
        let onTime = try cli.json(["verify", "--habit", "Make bed", dated], now: "2026-11-18T09:00:00Z")
        let object = try #require((onTime as? [[String: Any]])?.first)
        #expect(object["recorded"] as? Bool == true)
        #expect(object["captureTime"] as? String == "2026-11-18T07:45:00+01:00")
        #expect(object["note"] == nil)
        // Without an offset the EXIF time is read in the configured zone (UTC here).
        let local = Photos.scene("made-3-exif-local-2026-11-20.jpg")  // 2026:11:20 06:30:00
        let result = try cli.json(["verify", "--habit", "Make bed", local], now: "2026-11-20T09:00:00Z")
        let localObject = try #require((result as? [[String: Any]])?.first)
        #expect(localObject["recorded"] as? Bool == true)
        #expect(localObject["captureTime"] as? String == "2026-11-20T06:30:00Z")
    }

    @Test func aPictureThatIsNotAPhotoIsNotMadeAndRecordsNothing() throws {
        let cli = try CLI()
        defer { cli.remove() }
        try cli.run(["habit", "add", "Make bed", "--kind", "photo"], now: "2026-11-18T07:00:00Z")
        // Issue 23: a uniform black 1000x750 JPEG was "made, confidence 0.97" and proved the day.
        let black = try cli.run(
            ["verify", "--habit", "Make bed", Photos.notPhoto("black.jpg")], now: "2026-11-18T08:00:00Z")
        #expect(black.status == 1)
        #expect(
            black.stdout.contains(
                "black.jpg: not made (confidence 1.00): not a photo of a room: the picture is nearly uniform"))
        #expect(black.stdout.contains("Make bed: not recorded (the bed is not made)."))
        let names = [
            "gray.jpg", "white.jpg", "noise.jpg", "blocks-8.jpg", "blocks-50.jpg", "gradient.jpg", "screenshot.jpg",
        ]
        let result = try cli.run(
            ["verify", "--json", "--habit", "Make bed"] + names.map(Photos.notPhoto), now: "2026-11-18T08:05:00Z")
        #expect(result.status == 1)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == names.count)
        for object in objects {
            #expect(object["made"] as? Bool == false && object["recorded"] as? Bool == false)
            let reasons = object["reasons"] as? [String] ?? []
            #expect(reasons.count == 1 && reasons[0].hasPrefix("not a photo of a room: "), "\(object)")
        }
        // The day is still open: a photo of a made bed proves it.
        #expect(try cli.run(["verify", "--habit", "Make bed", made], now: "2026-11-18T08:10:00Z").status == 0)
    }
}
