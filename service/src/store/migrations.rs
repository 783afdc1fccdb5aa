//! The SQLite schema as numbered migrations (`rusqlite_migration`, which
//! keeps the version in SQLite's `user_version`; PostgreSQL's are in
//! `migrations/postgres.rs`). Each later change of the
//! schema is one more entry at the end of [`MIGRATIONS`]; an entry is never
//! edited once released, so every stored database walks the same path.
//!
//! Migration 1 is the baseline: the schema as it stood when versions began.
//! Databases made before then have `user_version` 0 and any of the column
//! sets earlier releases wrote, so its hook adds whichever columns such a
//! database lacks instead of assuming one starting point.

use rusqlite::Connection;
use rusqlite_migration::{HookResult, M, Migrations};

pub mod postgres;

/// The baseline tables (created when missing).
const BASELINE: &str = "
CREATE TABLE IF NOT EXISTS games (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL,
    config_json   TEXT NOT NULL,
    created_ms    INTEGER NOT NULL,
    status        TEXT NOT NULL,
    forked_from   TEXT,
    forked_at_seq INTEGER,
    idle_timeout_s INTEGER NOT NULL DEFAULT 0,
    creator_hash  TEXT,
    ended_ms      INTEGER,
    resamples     TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    game_id    TEXT NOT NULL REFERENCES games(id),
    seat       INTEGER NOT NULL,
    open_to    TEXT NOT NULL,
    token_hash TEXT,
    claimed_by TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS choices (
    game_id   TEXT NOT NULL REFERENCES games(id),
    seq       INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    option_id TEXT NOT NULL,
    at_ms     INTEGER NOT NULL,
    kind      TEXT NOT NULL DEFAULT 'choice',
    PRIMARY KEY (game_id, seq)
);
";

/// Columns that databases made before versions began may lack.
const LATE_COLUMNS: &[(&str, &str, &str)] = &[
    ("choices", "kind", "TEXT NOT NULL DEFAULT 'choice'"),
    ("games", "idle_timeout_s", "INTEGER NOT NULL DEFAULT 0"),
    ("games", "creator_hash", "TEXT"),
    ("games", "ended_ms", "INTEGER"),
    ("games", "resamples", "TEXT"),
];

/// Adds the baseline columns an unversioned database lacks.
fn add_missing_columns(tx: &rusqlite::Transaction) -> HookResult {
    for (table, column, ty) in LATE_COLUMNS {
        let present: bool = tx.query_row(
            &format!("SELECT COUNT(*) FROM pragma_table_info('{table}') WHERE name = '{column}'"),
            [],
            |r| r.get::<_, i64>(0).map(|n| n > 0),
        )?;
        if !present {
            tx.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {ty}"))?;
        }
    }
    Ok(())
}

/// Every migration, oldest first.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up_with_hook(BASELINE, add_missing_columns),
        // An index for the retention sweep and for listing by status.
        M::up("CREATE INDEX IF NOT EXISTS games_by_status ON games (status, ended_ms);"),
        // Lazy loading: what the lobby shows of a game without replaying it
        // (NULL for games stored before; they are replayed once at start).
        M::up(
            "ALTER TABLE games ADD COLUMN seq INTEGER;
             ALTER TABLE games ADD COLUMN last_move_ms INTEGER;
             ALTER TABLE games ADD COLUMN summary BLOB;",
        ),
        // Cheaper commits: the choices live in one B-tree keyed by
        // (game_id, seq) instead of a rowid table plus its key index, so
        // appending a choice dirties one page instead of two. Rows of games
        // that no longer exist (never read) are left behind rather than
        // failing the new table's foreign key.
        M::up(
            "CREATE TABLE choices_by_key (
                game_id   TEXT NOT NULL REFERENCES games(id),
                seq       INTEGER NOT NULL,
                seat      INTEGER NOT NULL,
                option_id TEXT NOT NULL,
                at_ms     INTEGER NOT NULL,
                kind      TEXT NOT NULL DEFAULT 'choice',
                PRIMARY KEY (game_id, seq)
             ) WITHOUT ROWID;
             INSERT INTO choices_by_key (game_id, seq, seat, option_id, at_ms, kind)
                 SELECT game_id, seq, seat, option_id, at_ms, kind FROM choices
                  WHERE game_id IN (SELECT id FROM games);
             DROP TABLE choices;
             ALTER TABLE choices_by_key RENAME TO choices;",
        ),
        // 1 once a choice was stored after the stored summary's seq: only
        // such games read their seq from their newest entry at start.
        M::up("ALTER TABLE games ADD COLUMN seq_behind INTEGER NOT NULL DEFAULT 0;"),
        // 1 when the creator chose the configuration's seed (the lobby
        // says so: whoever guesses it can compute the hidden cards). Games
        // stored before read 0: the server did not record it then.
        M::up("ALTER TABLE games ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0;"),
        // Turn clocks: the game's clock (JSON: rules, start, forfeits), and
        // per choice who made it and the seat's time after it. Games and
        // choices stored before read NULL: no clock, not recorded.
        M::up(
            "ALTER TABLE games ADD COLUMN clock TEXT;
             ALTER TABLE choices ADD COLUMN played_by TEXT;
             ALTER TABLE choices ADD COLUMN clock_ms INTEGER;",
        ),
        // Table talk: one row per line (its JSON), apart from the choices.
        M::up(
            "CREATE TABLE talk (
                game_id  TEXT NOT NULL REFERENCES games(id),
                talk_seq INTEGER NOT NULL,
                line     TEXT NOT NULL,
                PRIMARY KEY (game_id, talk_seq)
             ) WITHOUT ROWID;",
        ),
    ])
}

/// Brings `conn`'s schema to the latest version.
pub fn migrate(conn: &mut Connection) -> Result<(), rusqlite_migration::Error> {
    migrations().to_latest(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_migrations_are_valid() {
        assert!(migrations().validate().is_ok());
    }

    #[test]
    fn a_database_is_migrated_once_and_reaches_the_last_version() {
        let mut conn = Connection::open_in_memory().expect("open");
        migrate(&mut conn).expect("fresh");
        migrate(&mut conn).expect("again: nothing to do");
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).expect("version");
        assert_eq!(version, 8);
    }
}
