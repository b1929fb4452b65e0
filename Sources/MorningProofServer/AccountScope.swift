import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// One request's account: its rows, its clock and the moment the request acts at, and the use cases
/// a route calls for it, each on the account's rows and clock.
struct AccountScope: Sendable {
    let account: AccountProfile
    /// The database as the account sees it: another account's rows are not found.
    let database: any PerAccountStore
    /// The account's zone and day start: the server, never the client, decides what today is.
    let clock: DayClock
    let now: Date

    /// The account's habits: list, create, view, edit, order, remove.
    var habits: HabitService { HabitService(database: database, clock: clock) }
    /// The days of the account's habits: done, skipped, undone.
    var entries: EntryService { EntryService(database: database, clock: clock) }
    /// The account's daily check-in question.
    var checkin: CheckinService { CheckinService(database: database, clock: clock) }
    /// Today at a glance, and a habit's report.
    var reports: ReportService { ReportService(database: database, clock: clock) }
    /// A habit's heatmap and score curve.
    var charts: ChartService { ChartService(database: database, clock: clock) }
    /// Photo proofs of the account's photo habits.
    var proofs: ProofService { ProofService(database: database, clock: clock) }
    /// Health data arriving for the account, read on `cpu`.
    func metrics(readingOn cpu: any CPUWork) -> MetricIngest { MetricIngest(store: database, clock: clock, cpu: cpu) }
}
