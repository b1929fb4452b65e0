import Foundation
import MorningProofCore

extension ImportPlan.Item {
    /// The entries this item adds as recording them one by one would leave them: one per day, in
    /// the order their days first appear, a later entry of a day replacing an earlier one as
    /// `RecordOutcome` says, with the evidence of the first entry of the day. The plan leaves out the
    /// days already stored, so only the import itself can repeat a day (a hand-edited JSON export).
    /// Both engines store an import through this.
    public func entriesOnePerDay(habitID: Int64) -> [(entry: Entry, evidence: [PortableEvidence])] {
        var result: [(entry: Entry, evidence: [PortableEvidence])] = []
        var index: [LocalDay: Int] = [:]
        for imported in newEntries {
            let entry = imported.recorded(for: habitID)
            guard let at = index[entry.day] else {
                index[entry.day] = result.count
                result.append((entry, imported.evidence))
                continue
            }
            if case .replaced = RecordOutcome.of(recording: entry, over: result[at].entry) { result[at].entry = entry }
        }
        return result
    }
}
