import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

extension AppDatabase {
    /// Every table of the database with its rows, from one snapshot; SQLite's and GRDB's own
    /// tables, the derived ones (`DatabaseDump.derivedTables`) and the staging tables of uploads being
    /// stored (`MetricUploadStagingSchema`, SQLite's only) are left out. An owner with no
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
            for name in names
            where !DatabaseDump.derivedTables.contains(name) && !MetricUploadStagingSchema.tables.contains(name) {
                let columns = try db.columns(in: name).map(\.name)
                var rows: [[DatabaseDump.Value]] = []
                let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(name.quotedDatabaseIdentifier)")
                while let row = try cursor.next() {
                    rows.append(row.databaseValues.map(Self.dumpValue))
                }
                tables.append(DatabaseDump.Table(name: name, columns: columns, rows: rows))
            }
            guard var owner = try Self.profile(db, id: AccountProfile.ownerID) else {
                throw StoreError(.badFile, value: path, "\(path): the owner account (id 1) is missing")
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
