import Foundation
import TestFixtures
import Testing

/// End-to-end: `morningproof image info` on the committed SampleImages, as a script would run it.
@Suite("morningproof image info")
struct ImageInfoTests {
    func sample(_ name: String) -> String { SampleImages.path(name) }

    @Test("text output names format, sizes, orientation, colour and mean")
    func text() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let result = try cli.run(["image", "info", sample("orientation-6.jpg")])
        #expect(result.status == 0)
        #expect(result.stdout.contains("JPEG 64x96, orientation 6 (displayed 96x64), YCbCr 8-bit, baseline, mean RGB"))
    }

    @Test("JSON carries the documented fields with the right values")
    func json() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let result = try cli.run(["image", "info", sample("rgb16.png"), sample("baseline.jpg"), "--json"])
        #expect(result.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 2)
        let png = array[0]
        #expect(png["format"] as? String == "png")
        #expect(png["width"] as? Int == 64 && png["height"] as? Int == 32)
        #expect(png["displayWidth"] as? Int == 64 && png["displayHeight"] as? Int == 32)
        #expect(png["orientation"] as? Int == 1)
        #expect(png["colorSpace"] as? String == "RGB")
        #expect(png["bitDepth"] as? Int == 16)
        #expect(png["progressive"] as? Bool == false && png["interlaced"] as? Bool == false)
        // Left half mid grey 32768 (-> 128), right half red: the mean is exact for a lossless file.
        #expect(png["mean"] as? [Double] == [191.5, 64, 64])
        let jpeg = array[1]
        #expect(jpeg["captureTime"] as? String == "2026:11:18 07:12:05")
        #expect(jpeg["captureOffset"] as? String == "+01:00")
        let mean = try #require(jpeg["mean"] as? [Double])
        #expect(mean.count == 3 && mean.allSatisfy { $0 > 100 && $0 < 140 })
    }

    @Test(
        "a broken file exits 65 with its reason",
        arguments: [
            ("broken/truncated.jpg", "JPEG data ends early"),
            ("broken/bad-crc.png", "CRC error"),
            ("broken/bad-crc-iend.png", "IEND: CRC error"),
            ("broken/empty.jpg", "the file is empty"),
            ("broken/text.jpg", "plain text"),
            ("broken/huge-60000.jpg", "claims 60000x60000"),
            ("broken/huge-60000.png", "claims 60000x60000"),
            ("broken/many-scans.jpg", "more than 100 scans"),
            ("broken/truncated.png", "PNG data ends early"),
        ])
    func broken(_ file: String, _ reason: String) throws {
        let cli = try CLI()
        defer { cli.remove() }
        let result = try cli.run(["image", "info", sample(file)])
        #expect(result.status == 65)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test("a missing file exits 66; with several files each is reported and the worst code wins")
    func missingAndMixed() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let missing = try cli.run(["image", "info", sample("nothing-here.jpg")])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("nothing-here.jpg: no such file"))
        let mixed = try cli.run([
            "image", "info", sample("baseline.jpg"), sample("broken/empty.jpg"), sample("nothing-here.jpg"), "--json",
        ])
        #expect(mixed.status == 66)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(mixed.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 3)
        #expect(array[0]["mean"] != nil)
        #expect((array[1]["error"] as? String)?.contains("empty") == true)
        #expect((array[2]["error"] as? String)?.contains("no such file") == true)
        let dataOnly = try cli.run(["image", "info", sample("broken/empty.jpg"), sample("baseline.jpg")])
        #expect(dataOnly.status == 65)
        #expect(dataOnly.stdout.contains("baseline.jpg: JPEG 128x96"))
    }

    @Test("--max-pixels refuses a file over the budget")
    func maxPixels() throws {
        let cli = try CLI()
        defer { cli.remove() }
        let result = try cli.run(["image", "info", sample("baseline.jpg"), "--max-pixels", "1000"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("over the limit of 1000 pixels"))
        let bad = try cli.run(["image", "info", sample("baseline.jpg"), "--max-pixels", "0"])
        #expect(bad.status == 64)
    }
}
