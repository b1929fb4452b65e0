import Foundation

/// Comma-separated text as spreadsheets and Loop write it (RFC 4180): fields in double quotes may hold
/// commas, `""` and line breaks.
public enum CSVRecords {
    /// Each record's fields with the line it starts on (from 1). Empty lines are skipped.
    public static func parse(_ text: String) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var recordLine = 1
        var sawAnything = false
        var characters = text.makeIterator()
        var pending: Character? = characters.next()
        func endRecord() {
            fields.append(field)
            if sawAnything { records.append((recordLine, fields)) }
            fields = []
            field = ""
            sawAnything = false
        }
        while let character = pending {
            pending = characters.next()
            if quoted {
                if character == "\"" {
                    if pending == "\"" {
                        field.append("\"")
                        pending = characters.next()
                    } else {
                        quoted = false
                    }
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"":
                quoted = true
                sawAnything = true
            case ",":
                fields.append(field)
                field = ""
                sawAnything = true
            case "\n", "\r\n", "\r":
                endRecord()
                line += 1
                recordLine = line
            default:
                field.append(character)
                sawAnything = true
            }
        }
        if sawAnything || !field.isEmpty { endRecord() }
        return records
    }

    /// One field as CSV writes it: quoted when it holds a comma, a quote or a line break.
    public static func field(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline })
            ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}
