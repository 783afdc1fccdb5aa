//! The PostgreSQL schema as numbered migrations, applied in order, each
//! once, recorded in `xodus_schema` (one row per version applied). As for
//! SQLite, an entry is never edited once released: a change of the schema
//! is one more entry at the end of [`MIGRATIONS`]. Nodes starting together
//! take turns through a transaction-scoped advisory lock (that lock orders
//! migrations only; no game's correctness rests on it).

use crate::store::StoreError;
use tokio_postgres::Client;

/// The key of the advisory lock that serializes migrations (the ASCII of
/// the service's first name; every release must keep it).
const MIGRATION_LOCK: i64 = 0x78_6f_64_75_73;

/// Every migration, oldest first.
pub const MIGRATIONS: &[&str] = &[
    // 1: games, seats and choices, as SQLite's schema at version 7. Seats,
    // choices (and later leases) go with their game (ON DELETE CASCADE),
    // so retention deletes a game with one statement.
    "CREATE TABLE games (
        id             TEXT PRIMARY KEY,
        kind           TEXT NOT NULL,
        config_json    TEXT NOT NULL,
        created_ms     BIGINT NOT NULL,
        status         TEXT NOT NULL,
        forked_from    TEXT,
        forked_at_seq  BIGINT,
        idle_timeout_s BIGINT NOT NULL DEFAULT 0,
        creator_hash   TEXT,
        ended_ms       BIGINT,
        resamples      TEXT,
        seq            BIGINT,
        last_move_ms   BIGINT,
        summary        BYTEA,
        seed_chosen    BOOLEAN NOT NULL DEFAULT false,
        clock          TEXT
     );
     CREATE INDEX games_by_status ON games (status, ended_ms);
     CREATE TABLE seats (
        game_id    TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat       SMALLINT NOT NULL,
        open_to    TEXT NOT NULL,
        token_hash TEXT,
        claimed_by TEXT,
        PRIMARY KEY (game_id, seat)
     );
     CREATE TABLE choices (
        game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq       BIGINT NOT NULL,
        seat      SMALLINT NOT NULL,
        option_id TEXT NOT NULL,
        at_ms     BIGINT NOT NULL,
        kind      TEXT NOT NULL,
        played_by TEXT,
        clock_ms  BIGINT,
        PRIMARY KEY (game_id, seq)
     );",
    // 2: ownership. One row per game owned by a node: the owner, its epoch
    // (raised by every change of owner, so a former owner's writes are
    // refused) and the expiry, compared with the database's clock.
    "CREATE TABLE leases (
        game_id    TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        owner      TEXT NOT NULL,
        epoch      BIGINT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
     );
     CREATE INDEX leases_by_expiry ON leases (expires_at);",
    // 3: several nodes. `lobby_seq` orders the lobby's changes (every
    // summary or status written takes the next), so a node catches up on
    // other nodes' changes by seq; `nodes` says where each node answers
    // gRPC (for forwarding); `cluster` holds the secret that proves a call
    // came from a node (a client never sees it).
    "CREATE SEQUENCE lobby_seq;
     ALTER TABLE games ADD COLUMN lobby_seq BIGINT NOT NULL DEFAULT nextval('lobby_seq');
     CREATE INDEX games_by_lobby_seq ON games (lobby_seq);
     CREATE TABLE nodes (
        name    TEXT PRIMARY KEY,
        address TEXT NOT NULL,
        seen_at TIMESTAMPTZ NOT NULL
     );
     CREATE TABLE cluster (
        id     INTEGER PRIMARY KEY CHECK (id = 1),
        secret TEXT NOT NULL
     );
     INSERT INTO cluster (id, secret)
          VALUES (1, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));",
    // 4: table talk, one row per line (its JSON), apart from the choices.
    "CREATE TABLE talk (
        game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        talk_seq BIGINT NOT NULL,
        line     TEXT NOT NULL,
        PRIMARY KEY (game_id, talk_seq)
     );",
];

/// Brings the schema to the latest version; returns it.
pub async fn migrate(client: &mut Client) -> Result<usize, StoreError> {
    migrate_to(client, MIGRATIONS.len()).await
}

/// Brings the schema to version `target` (tests start from an older one);
/// refuses a database whose schema is newer than this code knows.
pub async fn migrate_to(client: &mut Client, target: usize) -> Result<usize, StoreError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS xodus_schema (
            version    INTEGER PRIMARY KEY,
            applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
         )",
    )
    .await?;
    let current: i32 = tx.query_one("SELECT COALESCE(MAX(version), 0) FROM xodus_schema", &[]).await?.get(0);
    let current = usize::try_from(current).unwrap_or(0);
    if current > MIGRATIONS.len() {
        return Err(StoreError::Corrupt(format!(
            "the database's schema is version {current}, newer than this server's {}",
            MIGRATIONS.len()
        )));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().take(target).skip(current) {
        tx.batch_execute(sql).await?;
        let version = i32::try_from(i + 1).unwrap_or(i32::MAX);
        tx.execute("INSERT INTO xodus_schema (version) VALUES ($1)", &[&version]).await?;
    }
    tx.commit().await?;
    Ok(current.max(target.min(MIGRATIONS.len())))
}
