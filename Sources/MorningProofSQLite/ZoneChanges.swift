import Foundation
import GRDB
import MorningProofCore
import MorningProofStoreContract

/// The account's recorded changes of zone or day start (`zoneChange`), which make travel days: written
/// by the owner's clock and by `changeProfile`, read by the habit-state context and the reports.
extension AppDatabase {
    /// Records a change of the account's clock, inside a write transaction.
    static func insert(_ change: ZoneChange, accountID: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO zoneChange (accountId, at, fromZone, fromDayStart, toZone, toDayStart)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                accountID, change.at, change.from.zoneIdentifier, change.from.dayStart, change.to.zoneIdentifier,
                change.to.dayStart,
            ])
    }

    /// Every recorded change of the account's zone, oldest first.
    public func zoneChanges() throws -> [ZoneChange] {
        try read { db in try Self.zoneChanges(db, accountID: accountID) }
    }

    static func zoneChanges(_ db: Database, accountID: Int64) throws -> [ZoneChange] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM zoneChange WHERE accountId = ? ORDER BY at, id", arguments: [accountID]
        )
        .compactMap { row in
            guard let from = DayClock(zoneIdentifier: row["fromZone"], dayStart: row["fromDayStart"]),
                let to = DayClock(zoneIdentifier: row["toZone"], dayStart: row["toDayStart"])
            else { return nil }
            return ZoneChange(at: row["at"], from: from, to: to)
        }
    }

    /// Days on which the account's zone changed (in the old zone and in the new one).
    public func travelDays() throws -> Set<LocalDay> {
        try zoneChanges().travelDays
    }
}
