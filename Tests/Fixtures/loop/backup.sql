-- A Loop Habit Tracker backup, as the Android app writes it at schema version 25 (its public
-- migrations 09.sql to 25.sql, applied in order), for the import tests:
--   sqlite3 backup.db < Tests/Fixtures/loop/backup.sql
-- "Today" in the tests is 2026-03-09. Timestamps are milliseconds at midnight UTC of the local date;
-- values: 2 YES_MANUAL, 0 NO, 3 SKIP, -1 UNKNOWN, amounts x 1000 for numerical habits.
PRAGMA user_version = 25;
CREATE TABLE android_metadata (locale TEXT);
INSERT INTO android_metadata VALUES ('en_US');
CREATE TABLE Habits (
    id integer primary key autoincrement,
    archived integer,
    color integer,
    description text,
    freq_den integer,
    freq_num integer,
    highlight integer,
    name text,
    position integer,
    reminder_hour integer,
    reminder_min integer,
    reminder_days integer not null default 127,
    type integer not null default 0,
    target_type integer not null default 0,
    target_value real not null default 0,
    unit text not null default "",
    question text,
    uuid text
);
CREATE TABLE Repetitions (
    id integer primary key autoincrement,
    habit integer not null references habits(id),
    timestamp integer not null,
    value integer not null,
    notes text
);
CREATE UNIQUE INDEX idx_repetitions_habit_timestamp ON Repetitions(habit, timestamp);
CREATE TABLE Events (
    id integer primary key autoincrement,
    timestamp integer,
    message text,
    server_id integer
);

-- id, archived, color, description, freq_den, freq_num, highlight, name, position, reminder_hour,
-- reminder_min, reminder_days, type, target_type, target_value, unit, question, uuid
INSERT INTO Habits VALUES (1, 0, 8, '', 1, 1, 0, 'Meditate', 0, 7, 30, 127, 0, 0, 0, '',
    'Did you meditate this morning?', '3f1b7c2e9a5d4e6f8a1b2c3d4e5f6a7b');
INSERT INTO Habits VALUES (2, 0, 4, '', 7, 3, 0, 'Run', 1, NULL, NULL, 127, 0, 0, 0, '',
    'Did you run today?', '8c2d4e6f1a3b5c7d9e0f1a2b3c4d5e6f');
INSERT INTO Habits VALUES (3, 0, 11, 'Walk with the dog', 1, 1, 0, 'Walk', 2, NULL, NULL, 127, 1, 0, 8000, 'steps',
    'How many steps today?', 'a1b2c3d4e5f60718293a4b5c6d7e8f90');
INSERT INTO Habits VALUES (4, 0, 2, '', 1, 1, 0, 'Journal', 3, 21, 0, 127, 0, 0, 0, '',
    'Did you write in your journal?', 'b2c3d4e5f60718293a4b5c6d7e8f90a1');
INSERT INTO Habits VALUES (5, 1, 6, '', 2, 1, 0, 'Floss', 4, NULL, NULL, 127, 0, 0, 0, '',
    'Did you floss?', 'c3d4e5f60718293a4b5c6d7e8f90a1b2');
INSERT INTO Habits VALUES (6, 0, 0, '', 1, 1, 0, 'Screen time', 5, NULL, NULL, 127, 1, 1, 120, 'min',
    'Minutes on the phone?', 'd4e5f60718293a4b5c6d7e8f90a1b2c3');
-- A frequency Loop never writes: a warning, and the habit is left out.
INSERT INTO Habits VALUES (7, 0, 0, '', 0, 1, 0, 'Broken', 6, NULL, NULL, 127, 0, 0, 0, '', '',
    'e5f60718293a4b5c6d7e8f90a1b2c3d4');

-- Meditate (daily): done 2026-01-20 to 01-31 (12 days), NO on 02-01, done 02-02 to 02-14 (13 days),
-- nothing on 02-15, done 02-16 to 03-09 (22 days, today included).
WITH RECURSIVE d(day) AS (SELECT '2026-01-20' UNION ALL SELECT date(day, '+1 day') FROM d WHERE day < '2026-03-09')
INSERT INTO Repetitions (habit, timestamp, value)
SELECT 1, strftime('%s', day) * 1000, CASE WHEN day = '2026-02-01' THEN 0 ELSE 2 END FROM d WHERE day <> '2026-02-15';
UPDATE Repetitions SET notes = 'Long sit, 40 minutes' WHERE habit = 1 AND timestamp = strftime('%s', '2026-03-01') * 1000;

-- Run (3 in 7 days): done every third day 01-05 to 01-17, then every third day 01-28 to 03-08; NO on 01-20.
WITH RECURSIVE d(day) AS (SELECT '2026-01-05' UNION ALL SELECT date(day, '+3 days') FROM d WHERE day < '2026-01-17')
INSERT INTO Repetitions (habit, timestamp, value) SELECT 2, strftime('%s', day) * 1000, 2 FROM d;
WITH RECURSIVE d(day) AS (SELECT '2026-01-28' UNION ALL SELECT date(day, '+3 days') FROM d WHERE day < '2026-03-08')
INSERT INTO Repetitions (habit, timestamp, value) SELECT 2, strftime('%s', day) * 1000, 2 FROM d;
INSERT INTO Repetitions (habit, timestamp, value) VALUES (2, strftime('%s', '2026-01-20') * 1000, 0);

-- Walk (numerical, at least 8000 steps a day): 9,000 to 12,000 steps 02-20 to 02-28, 5,000 on 03-01,
-- 8,000 to 11,500 steps 03-02 to 03-09.
WITH RECURSIVE d(day, n) AS (SELECT '2026-02-20', 0 UNION ALL SELECT date(day, '+1 day'), n + 1 FROM d WHERE day < '2026-03-09')
INSERT INTO Repetitions (habit, timestamp, value)
SELECT 3, strftime('%s', day) * 1000,
    CASE WHEN day = '2026-03-01' THEN 5000000 WHEN day = '2026-03-02' THEN 8000000 ELSE (9000 + 500 * (n % 7)) * 1000 END
FROM d;

-- Journal (daily): done 03-01 to 03-03, SKIP on 03-04, done 03-05 to 03-09.
WITH RECURSIVE d(day) AS (SELECT '2026-03-01' UNION ALL SELECT date(day, '+1 day') FROM d WHERE day < '2026-03-09')
INSERT INTO Repetitions (habit, timestamp, value)
SELECT 4, strftime('%s', day) * 1000, CASE WHEN day = '2026-03-04' THEN 3 ELSE 2 END FROM d;

-- Floss (every 2 days, archived): three checks in 2025.
INSERT INTO Repetitions (habit, timestamp, value) VALUES
    (5, strftime('%s', '2025-06-01') * 1000, 2), (5, strftime('%s', '2025-06-03') * 1000, 2),
    (5, strftime('%s', '2025-06-05') * 1000, 2);

-- Screen time (numerical, at most 120 minutes): 90, 100, 150, 60 and 30 minutes 03-05 to 03-09,
-- UNKNOWN on 03-04.
INSERT INTO Repetitions (habit, timestamp, value) VALUES
    (6, strftime('%s', '2026-03-04') * 1000, -1), (6, strftime('%s', '2026-03-05') * 1000, 90000),
    (6, strftime('%s', '2026-03-06') * 1000, 100000), (6, strftime('%s', '2026-03-07') * 1000, 150000),
    (6, strftime('%s', '2026-03-08') * 1000, 60000), (6, strftime('%s', '2026-03-09') * 1000, 30000);

-- Rows an import warns about and leaves out: a habit that does not exist, a day after today.
INSERT INTO Repetitions (habit, timestamp, value) VALUES (42, strftime('%s', '2026-03-01') * 1000, 2);
INSERT INTO Repetitions (habit, timestamp, value) VALUES (1, strftime('%s', '2026-03-12') * 1000, 2);
