import Foundation

/// Deleting an account with every row it owns (issue 41). `AccountStore` refines it, so that both
/// engines serve it.
public protocol AccountDeletionStore: Sendable {
    /// Deletes the account and every row it owns, in one transaction: the rows of every table with
    /// an account, habit or entry column that points at it (`AccountOwnership`), found from the
    /// schema, so that a table added later is covered without a change here. False when there is
    /// no such account.
    func deleteAccount(_ accountID: Int64) async throws -> Bool
}

/// Which rows of a table belong to an account, by the table's columns: an `accountId` column
/// names the account; without one, a `habitId` names one of its habits, an `entryId` one of their
/// entries. Both engines find their tables in their own schema and delete through this.
public enum AccountOwnership: Sendable, Equatable {
    case account, habit, entry

    /// How the rows of a table with `columns` (in any case) belong to an account; nil when they
    /// belong to none (the server's own tables: migrations, the VAPID key, the CLI's watched files).
    public init?(columns: [String]) {
        let names = Set(columns.map { $0.lowercased() })
        if names.contains("accountid") {
            self = .account
        } else if names.contains("habitid") {
            self = .habit
        } else if names.contains("entryid") {
            self = .entry
        } else {
            return nil
        }
    }

    /// The tables of `schema` (name: columns) that hold an account's rows, in the order they are
    /// deleted: an entry's rows, then a habit's, then the account's, the habits last of those (so
    /// that whatever points at a row goes before it). The `account` table itself is not in it.
    public static func deletionOrder(_ schema: [String: [String]]) -> [(table: String, ownership: AccountOwnership)] {
        let rank: [AccountOwnership: Int] = [.entry: 0, .habit: 1, .account: 2]
        return schema.compactMap { name, columns in
            guard name.lowercased() != "account", let ownership = AccountOwnership(columns: columns) else {
                return nil
            }
            return (name, ownership)
        }
        .sorted {
            let left = (rank[$0.ownership] ?? 0, $0.table.lowercased() == "habit" ? 1 : 0, $0.table)
            let right = (rank[$1.ownership] ?? 0, $1.table.lowercased() == "habit" ? 1 : 0, $1.table)
            return left < right
        }
    }

    /// The SQL condition (the same on both engines) that picks the account's rows of a table so
    /// owned, given the ids of its habits (read before any is deleted). Ids are integers, so the
    /// text holds no value a person wrote.
    public func condition(accountID: Int64, habitIDs: [Int64]) -> String? {
        let habits = habitIDs.map(String.init).joined(separator: ", ")
        switch self {
        case .account: return "accountId = \(accountID)"
        case .habit: return habitIDs.isEmpty ? nil : "habitId IN (\(habits))"
        case .entry:
            return habitIDs.isEmpty ? nil : "entryId IN (SELECT id FROM entry WHERE habitId IN (\(habits)))"
        }
    }
}
