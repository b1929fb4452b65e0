import HealthMetrics
import MorningProofCore
import MorningProofService
import MorningProofStore

extension MetricSources {
    /// The watched files (`morningproof source add`) and the daily totals stored from them.
    public static func live(database: AppDatabase, clock: DayClock) -> MetricSources {
        MetricSources(
            scanChanged: {
                let report = try SourceScanner(database: database, clock: clock).scanChangedSources()
                return Scan(
                    filesRead: report.filesRead, recordsRead: report.recordsRead, daysTouched: report.daysTouched,
                    warnings: report.warnings)
            },
            value: { metric, day, activity in try database.metricValue(metric: metric, day: day, activity: activity) })
    }
}
