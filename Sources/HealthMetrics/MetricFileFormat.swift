import Foundation

/// The kinds of metrics file MorningProof reads, told apart by their first bytes, never by name.
public enum MetricFileFormat: String, Sendable, CaseIterable {
    /// Apple Health `export.xml` (any localised name).
    case appleHealthXML
    /// Apple Health `export.zip`, read straight from the archive.
    case appleHealthZip
    /// Health Auto Export JSON: `{"data": {"metrics": [...], "workouts": [...]}}`.
    case healthAutoExport
    /// CSV with a header: `date,metric,value[,unit][,source]` or `start,end,metric,value[,unit][,source]`.
    case csv
    /// JSON Lines: one `{"metric", "value", "start" or "date", ...}` object per line.
    case jsonLines

    /// True for formats read sample by sample, whose appended lines can be resumed.
    public var isLineBased: Bool { self == .csv || self == .jsonLines }

    /// A name for people.
    public var displayName: String {
        switch self {
        case .appleHealthXML: "Apple Health export"
        case .appleHealthZip: "Apple Health export (zip)"
        case .healthAutoExport: "Health Auto Export JSON"
        case .csv: "CSV"
        case .jsonLines: "JSON Lines"
        }
    }

    /// True when a file said to be in this format (by a Content-Type) may be read as `found`: an
    /// Apple export may come as its XML or its zip.
    public func accepts(_ found: MetricFileFormat) -> Bool {
        self == found || (isAppleExport && found.isAppleExport)
    }

    /// Apple Health's own export, XML or zip.
    public var isAppleExport: Bool { self == .appleHealthXML || self == .appleHealthZip }

    /// How many bytes `detect` wants to see.
    public static let headSize = 65_536

    /// The format of a file whose first bytes are `head`; nil when it is no metrics file we know.
    public static func detect(head: Data) -> MetricFileFormat? {
        let bytes = [UInt8](head)
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .appleHealthZip }
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, isSpace(bytes[start]) { start += 1 }
        guard start < bytes.count else { return nil }
        let text = String(decoding: bytes[start...], as: UTF8.self)
        switch bytes[start] {
        case UInt8(ascii: "<"):
            return text.contains("<HealthData") || text.contains("<!DOCTYPE HealthData") ? .appleHealthXML : nil
        case UInt8(ascii: "{"):
            let firstLine = text.prefix { $0 != "\n" && $0 != "\r\n" }
            if let object = try? JSONSerialization.jsonObject(with: Data(firstLine.utf8)) as? [String: Any] {
                if object["data"] != nil { return .healthAutoExport }
                if object["metric"] != nil || object["type"] != nil { return .jsonLines }
                return nil
            }
            let compact = text.prefix(4096).filter { !$0.isWhitespace }
            return compact.hasPrefix("{\"data\":") || compact.contains("\"metrics\":[") ? .healthAutoExport : nil
        default:
            let header = text.prefix { $0 != "\n" && $0 != "\r\n" }
            return CSVHeader(line: String(header)) != nil ? .csv : nil
        }
    }

    /// The format of the file at `path`, from its first bytes.
    public static func detect(path: String) throws -> MetricFileFormat? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return detect(head: try handle.read(upToCount: headSize) ?? Data())
    }
}
