import Foundation
import MorningProofCore
import MorningProofService
import MorningProofStoreContract

/// One stored day of a habit.
struct EntryJSON: Encodable, Sendable {
    let day: String
    let status: String
    let value: Double?
    let source: String
    let note: String?
    let recordedAt: String
    let zone: String

    init(_ entry: Entry) {
        day = entry.day.description
        status = entry.status.rawValue
        value = entry.value
        source = entry.source.rawValue
        note = entry.note
        recordedAt = ISOInstant.format(entry.recordedAt, in: TimeZone(identifier: entry.zone) ?? .gmt)
        zone = entry.zone
    }
}

/// What recording or undoing a day did, and the habit afterwards.
struct EntryChangeJSON: Encodable, Sendable {
    let day: String
    /// recorded, replaced, unchanged, kept manual (a manual entry wins), cleared, nothing to clear, or
    /// superseded (an action sent with its `at` lost to a later change of the day on another device).
    let result: String
    /// The day's entry after the change (the one that stands, when the action was superseded); left
    /// out when there is none.
    let entry: EntryJSON?
    let habit: HabitResourceJSON

    init(_ change: EntryChange, entry: Entry?) {
        day = change.day.description
        switch change.kind {
        case .recorded(.recorded): result = "recorded"
        case .recorded(.replaced): result = "replaced"
        case .recorded(.unchanged): result = "unchanged"
        case .recorded(.keptManual): result = "kept manual"
        case .recorded(.superseded), .superseded: result = "superseded"
        case .cleared(nil, nil): result = "nothing to clear"
        case .cleared: result = "cleared"
        }
        self.entry = entry.map(EntryJSON.init)
        habit = HabitResourceJSON(change.habit, progress: change.progress)
    }
}
