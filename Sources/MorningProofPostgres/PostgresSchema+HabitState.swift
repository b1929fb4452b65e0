import MorningProofCore

extension PostgresSchema {
    /// Each habit's derived state (`StoredHabitState`: SQLite's `habitState` and `habitStateDirty`,
    /// column for column), and the triggers that note, in the writing transaction itself and whoever
    /// writes (the API, `db copy`, psql), every change that can touch a habit's history: entries
    /// written, changed or removed (with their earliest day), a habit added or its schedule or first
    /// day changed, the account's week start or zone changes. Entry notes are statement triggers
    /// over transition tables, so a COPY of millions of entries notes each habit once.
    /// Every habit there is is noted, so the next write (or read) builds its state.
    static let v6: [String] = [
        """
        CREATE TABLE habitState (
            habitId bigint PRIMARY KEY REFERENCES habit (id) ON DELETE CASCADE,
            version integer NOT NULL,
            basis text NOT NULL,
            through text NOT NULL,
            validThrough text NOT NULL,
            trailingRun integer NOT NULL,
            trailingRunStart text,
            longest integer NOT NULL,
            longestStart text,
            longestEnd text,
            totalDone integer NOT NULL,
            score double precision NOT NULL,
            checksum bigint NOT NULL
        )
        """,
        // No foreign key: an entry removed with its habit is still noted, and then passed over.
        "CREATE TABLE habitStateDirty (habitId bigint PRIMARY KEY, day text NOT NULL)",
        """
        CREATE FUNCTION habitState_note(habits bigint[], days text[]) RETURNS void LANGUAGE sql AS $$
            INSERT INTO habitStateDirty (habitId, day)
            SELECT habitId, min(day) FROM unnest(habits, days) AS noted (habitId, day) GROUP BY habitId
            ON CONFLICT (habitId) DO UPDATE SET day = least(habitStateDirty.day, excluded.day)
        $$
        """,
        """
        CREATE FUNCTION habitState_note_account(account bigint) RETURNS void LANGUAGE sql AS $$
            INSERT INTO habitStateDirty (habitId, day)
            SELECT id, '\(StoredHabitState.noEntryDay)' FROM habit WHERE accountId = account
            ON CONFLICT (habitId) DO NOTHING
        $$
        """,
        """
        CREATE FUNCTION habitState_entries_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM habitState_note(ARRAY(SELECT habitId FROM new_rows), ARRAY(SELECT day FROM new_rows));
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION habitState_entries_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM habitState_note(ARRAY(SELECT habitId FROM old_rows), ARRAY(SELECT day FROM old_rows));
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION habitState_entries_updated() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM habitState_note(
                ARRAY(SELECT o.habitId FROM old_rows o JOIN new_rows n USING (id)
                      WHERE (o.habitId, o.day, o.status) IS DISTINCT FROM (n.habitId, n.day, n.status)
                      UNION ALL SELECT n.habitId FROM old_rows o JOIN new_rows n USING (id)
                      WHERE (o.habitId, o.day, o.status) IS DISTINCT FROM (n.habitId, n.day, n.status)),
                ARRAY(SELECT o.day FROM old_rows o JOIN new_rows n USING (id)
                      WHERE (o.habitId, o.day, o.status) IS DISTINCT FROM (n.habitId, n.day, n.status)
                      UNION ALL SELECT n.day FROM old_rows o JOIN new_rows n USING (id)
                      WHERE (o.habitId, o.day, o.status) IS DISTINCT FROM (n.habitId, n.day, n.status)));
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER habitState_entry_inserted AFTER INSERT ON entry REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION habitState_entries_inserted()
        """,
        """
        CREATE TRIGGER habitState_entry_deleted AFTER DELETE ON entry REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION habitState_entries_deleted()
        """,
        """
        CREATE TRIGGER habitState_entry_updated AFTER UPDATE ON entry
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION habitState_entries_updated()
        """,
        """
        CREATE FUNCTION habitState_habit_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM habitState_note(ARRAY[NEW.id], ARRAY['\(StoredHabitState.noEntryDay)']);
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER habitState_habit_inserted AFTER INSERT ON habit
        FOR EACH ROW EXECUTE FUNCTION habitState_habit_changed()
        """,
        """
        CREATE TRIGGER habitState_habit_updated AFTER UPDATE OF schedule, createdDay ON habit FOR EACH ROW
        WHEN (OLD.schedule IS DISTINCT FROM NEW.schedule OR OLD.createdDay IS DISTINCT FROM NEW.createdDay)
        EXECUTE FUNCTION habitState_habit_changed()
        """,
        """
        CREATE FUNCTION habitState_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_TABLE_NAME = 'account' THEN
                PERFORM habitState_note_account(NEW.id);
            ELSIF TG_OP = 'DELETE' THEN
                PERFORM habitState_note_account(OLD.accountId);
            ELSE
                PERFORM habitState_note_account(NEW.accountId);
                IF TG_OP = 'UPDATE' AND OLD.accountId <> NEW.accountId THEN
                    PERFORM habitState_note_account(OLD.accountId);
                END IF;
            END IF;
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER habitState_zone_changed AFTER INSERT OR UPDATE OR DELETE ON zoneChange
        FOR EACH ROW EXECUTE FUNCTION habitState_account_changed()
        """,
        """
        CREATE TRIGGER habitState_week_changed AFTER UPDATE OF weekStart ON account FOR EACH ROW
        WHEN (OLD.weekStart IS DISTINCT FROM NEW.weekStart) EXECUTE FUNCTION habitState_account_changed()
        """,
        "INSERT INTO habitStateDirty (habitId, day) SELECT id, '\(StoredHabitState.noEntryDay)' FROM habit",
    ]
}
