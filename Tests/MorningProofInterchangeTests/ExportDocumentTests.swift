import Foundation
import MorningProofCore
import Testing

@testable import MorningProofInterchange

@Suite struct ExportDocumentTests {
    static func at(_ text: String) -> Date { ISOInstant.parse(text)! }

    static let document = ExportDocument(habits: [
        PortableHabit(
            name: "Make bed", kind: .photo, remindAt: 450, required: true, note: "before coffee",
            createdDay: LocalDay("2026-03-01")!, createdAt: at("2026-03-01T07:00:00.123Z"),
            entries: [
                PortableEntry(
                    day: LocalDay("2026-03-02")!, status: .done, source: .photo, recordedAt: at("2026-03-02T07:10:05.999Z"),
                    zone: "Europe/Istanbul",
                    evidence: [
                        PortableEvidence(
                            sha256: String(repeating: "ab", count: 32), perceptualHash: -2, captureTime: nil,
                            verdict: "made", confidence: 0.952, features: ["smoothShare": 0.61, "colourEntropy": 3.25],
                            recordedAt: at("2026-03-02T07:10:05.999Z"))
                    ]),
                PortableEntry(
                    day: LocalDay("2026-03-03")!, status: .skipped, source: .manual, note: "travel, \"late\"",
                    recordedAt: at("2026-03-03T20:00:00.001Z"), zone: "UTC"),
            ]),
        PortableHabit(
            name: "Walk", kind: .metric, schedule: .timesInDays(times: 4, days: 10), archived: true,
            goal: MetricGoal(metric: "steps", comparison: .atLeast, target: 8000),
            createdDay: LocalDay("2026-02-01")!, createdAt: at("2026-02-01T00:00:00Z"),
            entries: [
                PortableEntry(
                    day: LocalDay("2026-02-02")!, status: .done, value: 8412.5, source: .metric,
                    recordedAt: at("2026-02-02T23:59:59.5Z"), zone: "America/New_York")
            ]),
    ])

    @Test func decodingAndEncodingGivesTheSameBytes() throws {
        let bytes = Self.document.encoded()
        let batch = try ExportDocument.read(bytes, file: "export.json")
        #expect(batch.warnings.isEmpty)
        #expect(batch.habits == Self.document.habits)
        #expect(ExportDocument(habits: batch.habits).encoded() == bytes)
    }

    @Test func theSchemaIsTheDocumentedOne() throws {
        let text = String(decoding: Self.document.encoded(), as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"format\" : \"morningproof-export\",\n  \"habits\" : [\n"))
        #expect(text.hasSuffix("  \"version\" : 1\n}\n"))
        #expect(text.contains("\"schedule\" : \"in:4:10\""))
        #expect(text.contains("\"remindAt\" : \"07:30\""))
        #expect(text.contains("\"createdAt\" : \"2026-03-01T07:00:00.123Z\""))
        #expect(text.contains("\"perceptualHash\" : \"fffffffffffffffe\""))
        #expect(text.contains("\"recordedAt\" : \"2026-02-02T23:59:59.500Z\""))
        // Absent values are left out, not null.
        #expect(!text.contains("null"))
    }

    @Test func aNewerVersionIsRefused() {
        let newer = Data(#"{"format": "morningproof-export", "version": 2, "habits": []}"#.utf8)
        #expect(throws: MorningProofError.dataError(
            "new.json is an export of version 2, from a newer MorningProof; this one reads version 1 and older")) {
            try ExportDocument.read(newer, file: "new.json")
        }
    }

    @Test func aBrokenFieldIsNamedByItsPath() {
        var text = String(decoding: Self.document.encoded(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"2026-03-03\"", with: "\"2026-03-33\"")
        #expect(throws: MorningProofError.dataError(
            "x.json: habits[0].entries[1].day: not a YYYY-MM-DD day: 2026-03-33")) {
            try ExportDocument.read(Data(text.utf8), file: "x.json")
        }
        #expect(throws: MorningProofError.self) { try ExportDocument.read(Data("[1, 2]".utf8), file: "x.json") }
        #expect(throws: MorningProofError.self) { try ExportDocument.read(Data("not json".utf8), file: "x.json") }
    }

    @Test func aBadOrRepeatedNameLeavesThatHabitOut() throws {
        var document = Self.document
        document.habits.append(document.habits[0])
        document.habits[2].name = "MAKE BED"
        document.habits[1].name = "Walk\u{202E}"
        let batch = try ExportDocument.read(document.encoded(), file: "x.json")
        #expect(batch.habits.map(\.name) == ["Make bed"])
        #expect(
            batch.warnings.map(\.description) == [
                "x.json (habits[1]): habit name contains the control character U+202E; use plain text on one line; habit left out",
                "x.json (habits[2]): a second habit named \"MAKE BED\"; left out",
            ])
    }

    @Test func instantsKeepMilliseconds() {
        #expect(InstantText.format(Self.at("2026-03-08T12:30:00.25Z")) == "2026-03-08T12:30:00.250Z")
        #expect(InstantText.format(Self.at("1969-12-31T23:59:59.999Z")) == "1969-12-31T23:59:59.999Z")
        #expect(InstantText.format(Self.at("2026-03-08T07:30:00-05:00")) == "2026-03-08T12:30:00.000Z")
    }
}
