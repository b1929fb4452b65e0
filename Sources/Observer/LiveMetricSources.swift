import HealthMetrics
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

extension MetricSources {
    /// The watched files (`morningproof source add`) and the daily totals stored from them.
    public static func live(database: any CheckPassStore, clock: DayClock) -> MetricSources {
        MetricSources(
            scanChanged: {
                let report = try await SourceScanner(database: database, clock: clock).scanChangedSources()
                return Scan(
                    filesRead: report.filesRead, recordsRead: report.recordsRead, daysTouched: report.daysTouched,
                    warnings: report.warnings)
            },
            value: { metric, day, activity in try await database.metricValue(metric: metric, day: day, activity: activity) })
    }
}
