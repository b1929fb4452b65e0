import Foundation
import MorningProofCore
import MorningProofInterchange

/// What an import did or would do, for scripts and for the web app: the one document that
/// `morningproof import --json` prints and `POST /api/import` answers, made from the plan
/// (`ImportPlan`) by both front ends. Its fields are the CLI's, which came first and which scripts
/// read; `alreadyHere` was the API's and is added. Field names never change within a version.
public struct ImportReport: Encodable, Sendable {
    /// One imported habit: created, or merged into the habit of the same name here.
    public struct Habit: Encodable, Sendable {
        public var name: String
        /// `create` or `merge`.
        public var action: String
        /// The habit here it merges into, when it does.
        public var mergeInto: String?
        public var entriesAdded: Int
        /// Days the import holds that are already here with the same status.
        public var alreadyHere: Int
        /// The first and last day of the entries added.
        public var firstDay: String?
        public var lastDay: String?
        /// How the habit here differs from the imported one (kept as here), in words.
        public var differences: [String]
        /// The habit's first day, moved back to its oldest day added.
        public var newCreatedDay: String?
    }

    /// A day recorded here that the import holds otherwise: what is here stays.
    public struct Conflict: Encodable, Sendable {
        public var habit: String
        public var day: String
        public var here: String
        public var hereSource: String
        public var imported: String
    }

    /// The program the file came from: `loop`, `harsh` or `json`.
    public var source: String
    /// The file as the person named it: a path for the CLI, "the upload" (or a form's part names) for the server.
    public var file: String
    /// True once stored; false for a dry run.
    public var applied: Bool
    public var habitsCreated: Int
    public var habitsMerged: Int
    public var entriesAdded: Int
    /// Days the import holds that are already here with the same status, over every habit.
    public var alreadyHere: Int
    /// The first and last day of the entries added.
    public var firstDay: String?
    public var lastDay: String?
    public var habits: [Habit]
    public var conflicts: [Conflict]
    /// Each row left out, with its file and place: `the upload (Repetitions id 7): no habit with id 42; left out`.
    public var warnings: [String]

    public init(_ plan: ImportPlan, source: String, file: String, applied: Bool) {
        self.source = source
        self.file = file
        self.applied = applied
        habitsCreated = plan.habitsCreated
        habitsMerged = plan.habitsMerged
        entriesAdded = plan.entriesAdded
        alreadyHere = plan.items.reduce(0) { $0 + $1.alreadyHere }
        firstDay = plan.dayRange?.lowerBound.description
        lastDay = plan.dayRange?.upperBound.description
        habits = plan.items.map { item in
            Habit(
                name: item.habit.name, action: item.mergeInto == nil ? "create" : "merge",
                mergeInto: item.mergeInto?.name, entriesAdded: item.entriesAdded, alreadyHere: item.alreadyHere,
                firstDay: item.dayRange?.lowerBound.description, lastDay: item.dayRange?.upperBound.description,
                differences: item.differences, newCreatedDay: item.newCreatedDay?.description)
        }
        conflicts = plan.items.flatMap { item in
            item.conflicts.map {
                Conflict(
                    habit: item.mergeInto?.name ?? item.habit.name, day: $0.day.description, here: $0.here.rawValue,
                    hereSource: $0.hereSource.rawValue, imported: $0.imported.rawValue)
            }
        }
        warnings = plan.warnings.map(\.description)
    }
}
