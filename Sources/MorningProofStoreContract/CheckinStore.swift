import Foundation
import MorningProofCore

/// Answers of check-in habits.
public protocol CheckinStore: AccountScopedStore {
    /// The answer of a check-in habit on a day (`CheckinAnswer.standing`).
    func checkinAnswer(habitID: Int64, day: LocalDay) async throws -> CheckinAnswer?
    /// The most recent answer of a check-in habit, on any day (`CheckinAnswer.latest`).
    func lastCheckinAnswer(habitID: Int64) async throws -> CheckinAnswer?
    /// Answers the check-in for a day as `CheckinOutcome.of` decides, with a done entry for a yes.
    @discardableResult func answerCheckin(habitID: Int64, day: LocalDay, yes: Bool, at instant: Date, zone: String)
        async throws -> CheckinOutcome
    /// The same as a person's action at `instant`, noted as the day's latest change; with
    /// `lastWriterWins`, an answer that happened before the day's latest change (`LastWriter.loses`)
    /// changes nothing: `.superseded`.
    func answerCheckin(
        habitID: Int64, day: LocalDay, yes: Bool, at instant: Date, zone: String, lastWriterWins: Bool
    ) async throws -> CheckinOutcome
}
