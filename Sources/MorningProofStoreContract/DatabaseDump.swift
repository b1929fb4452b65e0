import Foundation
import MorningProofCore

/// A whole MorningProof database as plain values, table by table, from one snapshot: what
/// `morningproof-server db copy` moves into another engine. Nothing in it is GRDB's.
public struct DatabaseDump: Sendable {
    /// A stored value as SQLite keeps it: the receiving engine converts it to its column's type.
    public enum Value: Sendable, Equatable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
    }

    public struct Table: Sendable {
        public var name: String
        public var columns: [String]
        public var rows: [[Value]]

        public init(name: String, columns: [String], rows: [[Value]]) {
            self.name = name
            self.columns = columns
            self.rows = rows
        }
    }

    public var tables: [Table]
    /// The owner's clock as the CLI counts days by it (another engine keeps it on the account row).
    public var owner: AccountProfile
    /// True when the CLI had no zone set and `owner`'s is the machine's, which it fell back on.
    public var ownerZoneFromSystem: Bool

    public init(tables: [Table], owner: AccountProfile, ownerZoneFromSystem: Bool = false) {
        self.tables = tables
        self.owner = owner
        self.ownerZoneFromSystem = ownerZoneFromSystem
    }

    /// Tables that are derived from the others and rebuilt by whoever reads them, so never copied:
    /// the habit-state cache and its change notes.
    public static let derivedTables: Set<String> = ["habitState", "habitStateDirty"]
}
