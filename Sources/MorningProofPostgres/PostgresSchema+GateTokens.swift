extension PostgresSchema {
    /// Migration `v16-gate-scopes` (SQLite's of the same name): tokens may have the scopes `gate` (the
    /// shield's answer and unlock only) and `pairing` (a one-time code exchanged for a gate token).
    static let gateTokenScopes = [
        "ALTER TABLE api_token DROP CONSTRAINT api_token_scope_check",
        "ALTER TABLE api_token ADD CONSTRAINT api_token_scope_check CHECK (scope IN ('full', 'metrics', 'gate', 'pairing'))",
    ]
}
