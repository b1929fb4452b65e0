import Foundation

/// A Loop Habit Tracker CSV export folder of `habits` daily habits, each done on `days` days up to
/// 2026-03-09 (not done on one day in eleven).
enum LoopCSV {
    static func write(habits: Int, days: Int, in parent: URL) throws -> String {
        let folder = parent.appendingPathComponent("loop-csv-\(habits)x\(days)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let last = formatter.date(from: "2026-03-09")!
        let dates = (0..<days).map { formatter.string(from: last.addingTimeInterval(-86_400 * Double($0))) }
        var list =
            "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,"
            + "Target Type,Target Value,Archived?\n"
        for habit in 1...habits {
            let position = String(format: "%03d", habit)
            list += "\(position),Habit \(habit),YES_NO,,,1,1,#FF8F00,,,,false\n"
            var rows = "Date,Value,Notes\n"
            for (back, date) in dates.enumerated() {
                rows += "\(date),\(back % 11 == habit % 11 ? "NO" : "YES_MANUAL"),\n"
            }
            let habitFolder = folder.appendingPathComponent("\(position) Habit \(habit)")
            try FileManager.default.createDirectory(at: habitFolder, withIntermediateDirectories: true)
            try rows.write(to: habitFolder.appendingPathComponent("Checkmarks.csv"), atomically: true, encoding: .utf8)
        }
        try list.write(to: folder.appendingPathComponent("Habits.csv"), atomically: true, encoding: .utf8)
        return folder.path
    }
}
