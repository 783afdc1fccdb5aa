//! Durable storage behind a small trait, event-sourced: a game is its record
//! (config JSON with the seed, seats, status) plus the ordered list of
//! accepted choices. The engine state is never stored; it is rebuilt by
//! replaying the choices. Three implementations: [`SqliteStore`] (the
//! default, one file in the data directory), [`PostgresStore`] (a server
//! database several nodes may share, with fenced ownership of games) and
//! [`MemoryStore`] (tests and benchmarks). Methods are blocking: callers
//! run them off the async runtime (`spawn_blocking`). Every method returns
//! only once its write is durable, which is what lets the server
//! acknowledge a choice.

use crate::model::{EntryRecord, GameRecord, SeatRecord, Status, StoredBrief, StoredGame, TalkRecord};

mod memory;
pub(crate) mod migrations;
pub mod postgres;
mod sqlite;
#[cfg(test)]
mod tests;
mod writer;

pub use memory::MemoryStore;
pub use postgres::{PgOptions, PostgresStore};
pub use sqlite::SqliteStore;
pub use writer::Done;

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database error: {0}")]
    Db(#[from] rusqlite::Error),
    /// The schema could not be brought to this version's.
    #[error("database migration failed: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// A stored row does not parse.
    #[error("corrupt stored data: {0}")]
    Corrupt(String),
    /// The game id is unknown to the store.
    #[error("no stored game {0}")]
    NoSuchGame(String),
    /// The writer thread is gone or dropped a request.
    #[error("storage writer: {0}")]
    Writer(String),
    /// The transaction holding this write failed to commit: not durable.
    #[error("commit failed: {0}")]
    Commit(String),
    /// PostgreSQL refused or failed, or the connection broke.
    #[error("postgres error: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    /// This node's lease on the game is gone (expired, or another node
    /// took the game over with a newer epoch): the write was refused and
    /// nothing was written.
    #[error("game {game}: lease epoch {epoch} of node {node} is no longer valid (now {held_by})")]
    LeaseLost {
        /// The game.
        game: String,
        /// This node.
        node: String,
        /// The epoch this node wrote with (0: it held none).
        epoch: i64,
        /// Who holds the game now, as the database says.
        held_by: String,
    },
    /// Another node holds a live lease on the game.
    #[error("game {game} is owned by node {owner} (epoch {epoch})")]
    LeaseHeld {
        /// The game.
        game: String,
        /// The holder.
        owner: String,
        /// Its epoch.
        epoch: i64,
    },
    /// An entry with this seq is already stored.
    #[error("game {game}: entry {seq} is already stored")]
    Duplicate {
        /// The game.
        game: String,
        /// The seq.
        seq: u64,
    },
    /// Another process holds the data directory, or it could not be locked.
    #[error(transparent)]
    Locked(#[from] crate::dir_lock::DirLockError),
    /// Could not create the data directory.
    #[error("cannot create data directory {path}: {source}")]
    Dir {
        /// The directory.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// A talk line as stored: its JSON.
pub(crate) fn talk_to_json(line: &TalkRecord) -> Result<String, StoreError> {
    serde_json::to_string(line).map_err(|e| StoreError::Corrupt(format!("talk line {}: {e}", line.talk_seq)))
}

/// A seat's mutes as stored: its JSON.
pub(crate) fn mutes_to_json(m: &crate::model::MuteRecord) -> Result<String, StoreError> {
    serde_json::to_string(m).map_err(|e| StoreError::Corrupt(format!("mutes of seat {}: {e}", m.seat)))
}

/// One row of the talk table read back: a line (talk_seq from 1) or a
/// seat's mutes (below 0), into `talk` or `mutes`.
pub(crate) fn talk_row(
    game_id: &str,
    talk_seq: i64,
    json: &str,
    talk: &mut Vec<TalkRecord>,
    mutes: &mut Vec<crate::model::MuteRecord>,
) -> Result<(), StoreError> {
    if talk_seq < 0 {
        let m = serde_json::from_str(json)
            .map_err(|e| StoreError::Corrupt(format!("game {game_id}: mutes row {talk_seq}: {e}")))?;
        mutes.push(m);
        return Ok(());
    }
    talk.push(talk_from_json(game_id, talk_seq, json)?);
    Ok(())
}

/// A stored talk line read back.
pub(crate) fn talk_from_json(game_id: &str, talk_seq: i64, json: &str) -> Result<TalkRecord, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Corrupt(format!("game {game_id}: talk line {talk_seq}: {e}")))
}

/// What the server needs from a database. Small on purpose, so that a
/// server-grade database can take SQLite's place.
pub trait GameStore: Send + Sync + 'static {
    /// Stores a new game with its seats and any initial choices (a fork
    /// starts with the source's choices), all or nothing.
    fn create_game(&self, game: &GameRecord, entries: &[EntryRecord]) -> Result<(), StoreError>;
    /// Appends one accepted choice; durable when this returns.
    fn append_entry(&self, game_id: &str, entry: &EntryRecord) -> Result<(), StoreError>;
    /// Appends one accepted choice without blocking: the receiver
    /// completes once it is durable (with SQLite, together with the other
    /// games' choices of the same commit).
    fn append_entry_async(&self, game_id: &str, entry: &EntryRecord) -> Done {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let _ = tx.send(self.append_entry(game_id, entry));
        rx
    }
    /// Appends one line of table talk after the game's earlier lines;
    /// durable when this returns. Fenced like a choice on a shared store.
    fn append_talk(&self, game_id: &str, line: &TalkRecord) -> Result<(), StoreError>;
    /// Replaces one seat's mutes; durable when this returns. Fenced like a
    /// choice on a shared store.
    fn put_mutes(&self, game_id: &str, mutes: &crate::model::MuteRecord) -> Result<(), StoreError>;
    /// Replaces a game's clock record (its start, a forfeit).
    fn set_clock(&self, game_id: &str, clock: &crate::clock::ClockRecord) -> Result<(), StoreError>;
    /// Replaces one seat's record (claim or release).
    fn put_seat(&self, game_id: &str, seat: &SeatRecord) -> Result<(), StoreError>;
    /// Records a status change, with the time the game ended when it did.
    fn set_status(&self, game_id: &str, status: Status, ended_ms: Option<i64>) -> Result<(), StoreError>;
    /// Deletes a game with its seats and entries (retention of ended games).
    fn delete_game(&self, game_id: &str) -> Result<(), StoreError>;
    /// Every stored game with its choices, oldest first (tests).
    #[cfg(test)]
    fn load_all(&self) -> Result<Vec<StoredGame>, StoreError> {
        let mut out = Vec::new();
        for b in self.load_briefs()? {
            out.extend(self.load_game(&b.id)?);
        }
        Ok(out)
    }
    /// What the lobby needs of every stored game, oldest first, without
    /// its seats or choices.
    fn load_briefs(&self) -> Result<Vec<StoredBrief>, StoreError>;
    /// One stored game with its choices.
    fn load_game(&self, game_id: &str) -> Result<Option<StoredGame>, StoreError>;
    /// Stores the public summary of a game (protobuf bytes) with its seq
    /// and last move; the receiver completes once it is durable.
    fn put_summary(&self, game_id: &str, summary: Vec<u8>, seq: u64, last_move_ms: i64) -> Done;

    /// Makes this node the game's owner before it loads the game: always
    /// so with a store of one node's own; with a shared one,
    /// [`StoreError::LeaseHeld`] names the node that owns it, and
    /// [`StoreError::NoSuchGame`] says nobody does. Returns the lease's new
    /// epoch when it was taken now (`None`: this node held it already, or
    /// the store has no leases).
    fn own(&self, _game_id: &str) -> Result<Option<i64>, StoreError> {
        Ok(None)
    }
    /// Whether this node still owns a game it loaded (a shared store's
    /// lease can be lost: a long pause, a take-over).
    fn owns(&self, _game_id: &str) -> bool {
        true
    }
    /// Gives a game up as it leaves this node's memory, in the background:
    /// the next node to need it takes it without waiting.
    fn disown(&self, _game_id: &str) {}
    /// Takes over up to `limit` live games whose owner's lease ran out (a
    /// node that died or was drained); returns their ids.
    fn take_over_lapsed(&self, _limit: i64) -> Result<Vec<String>, StoreError> {
        Ok(Vec::new())
    }
    /// The shared store's side for several nodes; `None` for a store of
    /// one node's own.
    fn cluster(&self) -> Option<&dyn ClusterStore> {
        None
    }
}

/// What several nodes on one shared store need of it besides games.
pub trait ClusterStore: Send + Sync {
    /// This node's name.
    fn node(&self) -> &str;
    /// The secret that proves a call forwarded between nodes came from one
    /// (kept in the database; clients never see it).
    fn secret(&self) -> &str;
    /// Publishes where this node answers gRPC (renewed with its leases).
    fn advertise(&self, address: &str);
    /// Where node `node` answers gRPC, when it said.
    fn node_address(&self, node: &str) -> Result<Option<String>, StoreError>;
    /// The lobby's changes made by every node, once (later calls: `None`):
    /// each game's brief whenever its summary or status changed, possibly
    /// more than once, in each game's order.
    fn lobby_changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<StoredBrief>>;
    /// Whether the database answers now.
    fn ping(&self) -> Result<(), StoreError>;
    /// Gives up every game this node owns (a drain): the other nodes take
    /// them over at once.
    fn release_all(&self) -> Result<usize, StoreError>;
    /// The live games each live node owns now, by node name (a node that
    /// owns none counts 0).
    fn ownership(&self) -> Result<Vec<(String, i64)>, StoreError>;
    /// Hands the lease of a game this node holds to node `to` (fenced by
    /// epoch: this node writes to it no more); false when it held it no
    /// more.
    fn hand_over(&self, game_id: &str, to: &str) -> Result<bool, StoreError>;
    /// Takes up the games other nodes handed to this one: their ids.
    fn adopt_handed(&self) -> Result<Vec<String>, StoreError>;
}

/// Looks a game up in a loaded list (test helper and diagnostics).
#[cfg(test)]
pub fn find<'a>(games: &'a [StoredGame], id: &str) -> Option<&'a StoredGame> {
    games.iter().find(|g| g.record.id == id)
}
