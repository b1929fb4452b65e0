extension PostgresSchema {
    /// Migration `v20-account-keys` (SQLite's of the same name): notifications get the foreign key to their
    /// account that v4 left out, as SQLite had to, ON DELETE CASCADE, so that a claim made while the
    /// account is deleted cannot leave a row behind. Rows whose account is gone go first.
    /// (PostgreSQL's `zoneChange` has had its key since v1; SQLite's gets it in this migration.)
    static let notificationAccountKey = [
        "DELETE FROM notification n WHERE NOT EXISTS (SELECT 1 FROM account a WHERE a.id = n.accountId)",
        """
        ALTER TABLE notification ADD CONSTRAINT notification_accountid_fkey
            FOREIGN KEY (accountId) REFERENCES account (id) ON DELETE CASCADE
        """,
    ]
}
