import Foundation
import GRDB
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

extension AppDatabase {
    /// Every table of the database with its rows, from one snapshot; SQLite's and GRDB's own
    /// tables and the derived ones (`DatabaseDump.derivedTables`) are left out. An owner with no
    /// zone set gets the one its days are counted in, `systemZone`'s, so that another engine (which
    /// has no machine's zone to fall back on) counts them the same.
    public func dump(systemZone: @autoclosure () -> String = ZoneNames.systemDefault()) throws -> DatabaseDump {
        try read { db in
            let names = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table'
                    AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%' ORDER BY name
                    """)
            var tables: [DatabaseDump.Table] = []
            for name in names where !DatabaseDump.derivedTables.contains(name) {
                let columns = try db.columns(in: name).map(\.name)
                var rows: [[DatabaseDump.Value]] = []
                let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(name.quotedDatabaseIdentifier)")
                while let row = try cursor.next() {
                    rows.append(row.databaseValues.map(Self.dumpValue))
                }
                tables.append(DatabaseDump.Table(name: name, columns: columns, rows: rows))
            }
            guard var owner = try Self.profile(db, id: AccountProfile.ownerID) else {
                throw StoreError(.badFile, value: writer.path, "\(writer.path): the owner account (id 1) is missing")
            }
            let clock = Self.clock(from: try Self.storedSettings(db), systemZone: systemZone())
            let fromSystem = owner.clock == nil
            owner.timeZone = clock.zoneIdentifier
            return DatabaseDump(tables: tables, owner: owner, ownerZoneFromSystem: fromSystem)
        }
    }

    private static func dumpValue(_ value: DatabaseValue) -> DatabaseDump.Value {
        switch value.storage {
        case .null: .null
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        case .blob(let data): .blob([UInt8](data))
        }
    }
}
