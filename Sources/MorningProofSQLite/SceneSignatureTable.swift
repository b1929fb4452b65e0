import GRDB

/// The tables of scene signatures: reference photos (migration "v14-reference-photos") and the
/// scenes of photo proofs ("v17-proof-scenes"). One row per photo, owned by its account and its
/// habit (deleted with either), the signature as base64 text: features, never the photo.
enum SceneSignatureTable {
    /// Creates table `name`: its id, account and habit, then `columns`; then runs `index`. The SQL
    /// is the one each migration ran when it landed, character for character.
    static func create(_ db: Database, _ name: String, columns: [String], index: String) throws {
        let all =
            [
                "id INTEGER PRIMARY KEY AUTOINCREMENT",
                "accountId INTEGER NOT NULL REFERENCES account(id) ON DELETE CASCADE",
                "habitId INTEGER NOT NULL REFERENCES habit(id) ON DELETE CASCADE",
            ] + columns
        try db.execute(
            sql: "CREATE TABLE \(name) (\n\(all.map { "    " + $0 }.joined(separator: ",\n"))\n);\n\(index);")
    }
}
