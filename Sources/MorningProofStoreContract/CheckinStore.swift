import Foundation
import MorningProofCore

/// Answers of check-in habits.
public protocol CheckinStore: AccountScopedStore {
    /// The answer of a check-in habit on a day (`CheckinAnswer.standing`).
    func checkinAnswer(habitID: Int64, day: LocalDay) async throws -> CheckinAnswer?
    /// The most recent answer of a check-in habit, on any day (`CheckinAnswer.latest`).
    func lastCheckinAnswer(habitID: Int64) async throws -> CheckinAnswer?
    /// Answers the check-in for a day as `CheckinOutcome.of` decides, with a done entry for a yes,
    /// as a person's action at `instant`, noted as the day's latest change; with `lastWriterWins`,
    /// an answer that happened before the day's latest change (`LastWriter.loses`) changes nothing:
    /// `.superseded`.
    func answerCheckin(
        habitID: Int64, day: LocalDay, yes: Bool, at instant: Date, zone: String, lastWriterWins: Bool
    ) async throws -> CheckinOutcome
}

extension CheckinStore {
    /// Answers the check-in for a day as `CheckinOutcome.of` decides: the answer and, for a yes, a
    /// done entry (source `checkin`), in one transaction. A yes stands for the day; a no can later
    /// become a yes. Written once for both engines: no last-writer rule.
    @discardableResult
    public func answerCheckin(habitID: Int64, day: LocalDay, yes: Bool, at instant: Date, zone: String) async throws
        -> CheckinOutcome
    {
        try await answerCheckin(habitID: habitID, day: day, yes: yes, at: instant, zone: zone, lastWriterWins: false)
    }
}
