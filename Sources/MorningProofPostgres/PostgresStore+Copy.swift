import Foundation
import MorningProofCore
import MorningProofStoreContract
import PostgresNIO

/// One table of a copy: the rows read from the source and the rows PostgreSQL holds after it.
public struct CopiedTable: Sendable, Equatable {
    public var table: String
    public var source: Int
    public var copied: Int
}

extension PostgresStore {
    /// Copies a whole database (`AppDatabase.dump()`) into this one, which must be empty: migrates
    /// it first if needed, then moves every table in one transaction (tables that others refer to
    /// first), sets the identity sequences past the copied ids, puts the owner's clock on its
    /// account row, counts the rows of every table and commits only when each count is the
    /// source's; the habits' derived state is built from the copied rows in that transaction (it is
    /// never copied). A database that holds anything but the owner row its migration made is refused
    /// with `StoreError(.conflict)`; a source table or column with no place here, with
    /// `StoreError(.badFile)`. Nothing is written then.
    public func copy(_ dump: DatabaseDump, from source: String) async throws -> [CopiedTable] {
        try await migrate()
        return try await transaction(.writing) { connection in
            // GRDB writes instants as UTC text without an offset.
            try await connection.query("SET LOCAL TimeZone = 'UTC'", logger: logger)
            let schema = try await CopySchema.read(connection, logger: logger)
            try await refuseData(connection, tables: schema.order)
            let plan = try schema.plan(for: dump, source: source)
            try await connection.query("DELETE FROM account WHERE id = 1", logger: logger)
            var counts: [CopiedTable] = []
            // Every table of the file, and those of PostgreSQL's that it has no counterpart of only
            // when they hold something (the throttle's failures, which start empty, do not).
            // The derived tables are left to the transaction's end, which builds every habit's state.
            let derived = Set(DatabaseDump.derivedTables.map { $0.lowercased() })
            for table in schema.order where !derived.contains(table) {
                let dumped = plan[table]
                if Self.serverMadeTables.contains(table) {
                    // The file's identity wins (its browsers subscribed to its key); without one, this one's stays.
                    guard let dumped, !dumped.rows.isEmpty else {
                        if let dumped { counts.append(CopiedTable(table: dumped.name, source: 0, copied: 0)) }
                        continue
                    }
                    try await connection.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table)"), logger: logger)
                }
                if let dumped, !dumped.rows.isEmpty {
                    try await connection.copyFrom(
                        table: table, columns: dumped.columns.map { $0.lowercased() }, logger: logger
                    ) { writer in
                        try await CopyText.write(dumped.rows, to: writer)
                    }
                }
                if schema.identityTables.contains(table) {
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL: """
                                SELECT setval(pg_get_serial_sequence('\(table)', 'id'),
                                    greatest((SELECT max(id) FROM "\(table)"), 1))
                                """), logger: logger)
                }
                let copied = try await count(connection, table)
                if dumped == nil && copied == 0 { continue }
                counts.append(
                    CopiedTable(table: dumped?.name ?? table, source: dumped?.rows.count ?? 0, copied: copied))
            }
            let owner = dump.owner
            try await connection.query(
                """
                UPDATE account SET timeZone = \(owner.timeZone), dayStart = \(owner.dayStart),
                    weekStart = \(owner.weekStart) WHERE id = 1
                """, logger: logger)
            if let wrong = counts.first(where: { $0.source != $0.copied }) {
                throw StoreError(
                    .unavailable, value: url.description,
                    "PostgreSQL at \(url): \(wrong.table) holds \(wrong.copied) rows after the copy, not \(wrong.source); "
                        + "nothing was copied")
            }
            return counts
        }
    }

    /// Tables a server fills at its first start, with nothing of any account: the VAPID identity.
    /// A database that holds only them is still empty for a copy.
    static let serverMadeTables: Set<String> = ["vapididentity"]

    /// Refuses a database with any row but the owner row that the first migration makes (and what
    /// a server made at its start: `serverMadeTables`).
    private func refuseData(_ connection: PostgresConnection, tables: [String]) async throws {
        for table in tables where !Self.serverMadeTables.contains(table) {
            let rows = try await count(
                connection, table,
                where: table == "account" ? "id <> 1 OR email IS NOT NULL OR passwordHash IS NOT NULL" : nil)
            guard rows == 0 else {
                throw StoreError(
                    .conflict, value: url.description,
                    "PostgreSQL at \(url) already holds data (\(rows) \(rows == 1 ? "row" : "rows") in \(table)): db copy fills only an empty "
                        + "database; create a new one (createdb) and copy into that")
            }
        }
    }

    private func count(_ connection: PostgresConnection, _ table: String, where condition: String? = nil)
        async throws -> Int
    {
        let filter = condition.map { " WHERE \($0)" } ?? ""
        let rows = try await connection.query(
            PostgresQuery(unsafeSQL: "SELECT count(*) FROM \"\(table)\"\(filter)"), logger: logger)
        for try await value in rows.decode(Int.self) { return value }
        return 0
    }
}

/// The tables of the PostgreSQL schema, in an order where each comes after those it refers to,
/// with their columns.
struct CopySchema {
    var order: [String]
    var columns: [String: Set<String>]
    var identityTables: Set<String>

    static func read(_ connection: PostgresConnection, logger: Logger) async throws -> CopySchema {
        var columns: [String: Set<String>] = [:]
        var identityTables: Set<String> = []
        let columnRows = try await connection.query(
            """
            SELECT table_name::text, column_name::text, is_identity::text FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'
            """, logger: logger)
        for try await (table, column, identity) in columnRows.decode((String, String, String).self) {
            columns[table, default: []].insert(column)
            if column == "id" && identity == "YES" { identityTables.insert(table) }
        }
        var references: [String: Set<String>] = [:]
        let foreignKeys = try await connection.query(
            """
            SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint
            WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
            """, logger: logger)
        for try await (table, referenced) in foreignKeys.decode((String, String).self) where table != referenced {
            references[table, default: []].insert(referenced)
        }
        var order: [String] = []
        func visit(_ table: String) {
            guard !order.contains(table) else { return }
            for referenced in references[table, default: []].sorted() { visit(referenced) }
            order.append(table)
        }
        for table in columns.keys.sorted() { visit(table) }
        return CopySchema(order: order, columns: columns, identityTables: identityTables)
    }

    /// The dump's tables by their name here (PostgreSQL folds unquoted names to lower case).
    func plan(for dump: DatabaseDump, source: String) throws -> [String: DatabaseDump.Table] {
        var plan: [String: DatabaseDump.Table] = [:]
        for table in dump.tables {
            let name = table.name.lowercased()
            guard let known = columns[name] else {
                throw StoreError(
                    .badFile, value: source,
                    "\(source): table \(table.name) has no place in the PostgreSQL schema; is it a newer MorningProof's?"
                )
            }
            if let missing = table.columns.first(where: { !known.contains($0.lowercased()) }) {
                throw StoreError(
                    .badFile, value: source,
                    "\(source): column \(table.name).\(missing) has no place in the PostgreSQL schema; "
                        + "is it a newer MorningProof's?")
            }
            plan[name] = table
        }
        return plan
    }
}

/// Rows in the text format of `COPY ... FROM STDIN`: tab-separated, `\N` for NULL, backslash
/// escapes; PostgreSQL converts each value to its column's type (0/1 to boolean, UTC text to
/// timestamptz).
enum CopyText {
    static func write(_ rows: [[DatabaseDump.Value]], to writer: PostgresCopyFromWriter) async throws {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(1 << 20)
        for row in rows {
            for (index, value) in row.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
                append(value, to: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "\n"))
            if buffer.readableBytes >= 1 << 20 {
                try await writer.write(buffer)
                buffer.clear()
            }
        }
        if buffer.readableBytes > 0 { try await writer.write(buffer) }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    static func append(_ value: DatabaseDump.Value, to buffer: inout ByteBuffer) {
        switch value {
        case .null: buffer.writeString("\\N")
        case .integer(let number): buffer.writeString(String(number))
        case .real(let number): buffer.writeString(String(number))
        case .text(let text):
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\\"): buffer.writeString("\\\\")
                case UInt8(ascii: "\t"): buffer.writeString("\\t")
                case UInt8(ascii: "\n"): buffer.writeString("\\n")
                case UInt8(ascii: "\r"): buffer.writeString("\\r")
                default: buffer.writeInteger(byte)
                }
            }
        case .blob(let bytes):
            // bytea's hex input, its backslash escaped for COPY.
            buffer.writeString("\\\\x")
            for byte in bytes {
                buffer.writeInteger(hex[Int(byte >> 4)])
                buffer.writeInteger(hex[Int(byte & 0xF)])
            }
        }
    }
}
