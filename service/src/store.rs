//! Durable storage behind a small trait, event-sourced: a game is its record
//! (config JSON with the seed, seats, status) plus the ordered list of
//! accepted choices. The engine state is never stored; it is rebuilt by
//! replaying the choices. Two implementations: [`SqliteStore`] (the
//! default, one file in the data directory) and [`MemoryStore`] (tests and
//! benchmarks). Methods are blocking: callers run them off the async
//! runtime (`spawn_blocking`). Every method returns only once its write is
//! durable, which is what lets the server acknowledge a choice.

use crate::model::{
    Claim, ClaimantKind, EntryKind, EntryRecord, GameRecord, OpenTo, Resample, SeatRecord, Status, StoredBrief,
    StoredGame,
};
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use writer::Writer;

mod writer;

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
    /// Could not create the data directory.
    #[error("cannot create data directory {path}: {source}")]
    Dir {
        /// The directory.
        path: String,
        /// Why.
        source: std::io::Error,
    },
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
}

/// SQLite in one file, WAL journal with `synchronous=FULL`: a commit is on
/// disk (fsync'd) before the call returns, so an acknowledged choice
/// survives `kill -9` and power loss alike. One thread owns the connection
/// (`writer.rs`) and commits the requests of concurrent games together:
/// one transaction and one fsync for all of them.
pub struct SqliteStore {
    /// The thread that owns the connection.
    writer: Writer,
    /// Games this process has marked `seq_behind` since their last stored
    /// summary: their next appends need not mark them again.
    behind: Mutex<std::collections::HashSet<String>>,
}

impl SqliteStore {
    /// Opens (creating if needed) `xodus.sqlite3` in `dir`; its writer
    /// polls for the next request for up to `poll` between batches
    /// (`Limits::commit_poll`).
    pub fn open_dir(dir: &Path, poll: std::time::Duration) -> Result<SqliteStore, StoreError> {
        Self::open_dir_with(dir, poll, "FULL")
    }

    /// Benchmarks only: as [`SqliteStore::open_dir`] but commits are not
    /// fsync'd (`synchronous=OFF`), so a crash may lose acknowledged
    /// choices. It shows what the durable path costs apart from the disk.
    pub fn open_dir_without_fsync(dir: &Path, poll: std::time::Duration) -> Result<SqliteStore, StoreError> {
        Self::open_dir_with(dir, poll, "OFF")
    }

    fn open_dir_with(dir: &Path, poll: std::time::Duration, synchronous: &str) -> Result<SqliteStore, StoreError> {
        std::fs::create_dir_all(dir).map_err(|source| StoreError::Dir { path: dir.display().to_string(), source })?;
        Self::open(Connection::open(dir.join("xodus.sqlite3"))?, poll, synchronous)
    }

    /// An in-memory SQLite database (tests).
    #[cfg(test)]
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        Self::open(Connection::open_in_memory()?, std::time::Duration::ZERO, "FULL")
    }

    fn open(mut conn: Connection, poll: std::time::Duration, synchronous: &str) -> Result<SqliteStore, StoreError> {
        // Small pages for a new database (an existing one keeps its own):
        // a commit writes every page it dirtied to the WAL before its
        // fsync, and the choices of a batch land on as many pages as it
        // has games, so 1 KiB pages cut what each fsync carries.
        conn.pragma_update(None, "page_size", 1024)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", synchronous)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        crate::migrations::migrate(&mut conn)?;
        Ok(SqliteStore { writer: Writer::start(conn, poll)?, behind: Mutex::default() })
    }

    /// Runs `f` on the writer thread and waits for its commit.
    fn write(&self, f: impl FnOnce(&Connection) -> Result<(), StoreError> + Send + 'static) -> Result<(), StoreError> {
        self.writer.run_blocking(Box::new(f))
    }

    /// Runs the read `f` on the writer thread and returns what it read.
    fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.write(move |c| {
            let _ = tx.send(f(c)?);
            Ok(())
        })?;
        rx.recv().map_err(|_| StoreError::Writer("a read returned nothing".into()))
    }
}

fn put_seat_tx(tx: &Connection, game_id: &str, s: &SeatRecord) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO seats (game_id, seat, open_to, token_hash, claimed_by) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (game_id, seat) DO UPDATE SET open_to = ?3, token_hash = ?4, claimed_by = ?5",
        params![
            game_id,
            s.seat,
            s.open_to.as_str(),
            s.claim.as_ref().map(|c| c.token_hash.as_str()),
            s.claim.as_ref().map(|c| c.by.as_str())
        ],
    )?;
    Ok(())
}

fn insert_entry(tx: &Connection, game_id: &str, e: &EntryRecord) -> Result<(), StoreError> {
    let seq = i64::try_from(e.seq).map_err(|_| StoreError::Corrupt(format!("seq {} too large", e.seq)))?;
    tx.prepare_cached(
        "INSERT INTO choices (game_id, seq, seat, option_id, at_ms, kind, played_by, clock_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        game_id,
        seq,
        e.seat,
        e.option_id,
        e.at_ms,
        e.kind.as_str(),
        e.played_by.map(crate::model::PlayedBy::as_str),
        e.clock_ms
    ])?;
    // Nothing else is written: one row in one B-tree keyed by (game, seq),
    // so a commit of one choice dirties one page. The lobby's seq and last
    // move are read back from the newest entry at the next start.
    Ok(())
}

impl GameStore for SqliteStore {
    fn create_game(&self, game: &GameRecord, entries: &[EntryRecord]) -> Result<(), StoreError> {
        let (game, entries) = (game.clone(), entries.to_vec());
        self.write(move |tx| create_game_tx(tx, &game, &entries))
    }

    fn append_entry(&self, game_id: &str, entry: &EntryRecord) -> Result<(), StoreError> {
        self.append_entry_async(game_id, entry)
            .blocking_recv()
            .unwrap_or_else(|_| Err(StoreError::Writer("the writer thread dropped a request".into())))
    }

    fn append_entry_async(&self, game_id: &str, entry: &EntryRecord) -> Done {
        let (id, entry) = (game_id.to_string(), entry.clone());
        let mut behind = self.behind.lock().unwrap_or_else(|e| e.into_inner());
        if !behind.contains(&id) {
            behind.insert(id.clone());
            // The first entry after the stored summary flags the game, so
            // the next start reads its seq from its newest entry. A request
            // of its own, before the entry's: it cannot fail with it.
            let flagged = id.clone();
            drop(self.writer.submit(Box::new(move |tx| {
                tx.prepare_cached("UPDATE games SET seq_behind = 1 WHERE id = ?1")?.execute([&flagged])?;
                Ok(())
            })));
        }
        self.writer.submit(Box::new(move |tx| insert_entry(tx, &id, &entry)))
    }

    fn put_seat(&self, game_id: &str, seat: &SeatRecord) -> Result<(), StoreError> {
        let (id, seat) = (game_id.to_string(), seat.clone());
        self.write(move |tx| put_seat_tx(tx, &id, &seat))
    }

    fn set_clock(&self, game_id: &str, clock: &crate::clock::ClockRecord) -> Result<(), StoreError> {
        let id = game_id.to_string();
        let json = serde_json::to_string(clock).map_err(|e| StoreError::Corrupt(format!("clock of {id}: {e}")))?;
        self.write(move |tx| {
            let n = tx.execute("UPDATE games SET clock = ?2 WHERE id = ?1", params![id, json])?;
            if n == 0 {
                return Err(StoreError::NoSuchGame(id));
            }
            Ok(())
        })
    }

    fn set_status(&self, game_id: &str, status: Status, ended_ms: Option<i64>) -> Result<(), StoreError> {
        let id = game_id.to_string();
        self.write(move |tx| {
            let n = tx.execute(
                "UPDATE games SET status = ?2, ended_ms = ?3 WHERE id = ?1",
                params![id, status.as_str(), ended_ms],
            )?;
            if n == 0 {
                return Err(StoreError::NoSuchGame(id));
            }
            Ok(())
        })
    }

    fn delete_game(&self, game_id: &str) -> Result<(), StoreError> {
        let id = game_id.to_string();
        self.behind.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
        self.write(move |tx| {
            tx.execute("DELETE FROM choices WHERE game_id = ?1", params![id])?;
            tx.execute("DELETE FROM seats WHERE game_id = ?1", params![id])?;
            tx.execute("DELETE FROM games WHERE id = ?1", params![id])?;
            Ok(())
        })
    }

    fn load_briefs(&self) -> Result<Vec<StoredBrief>, StoreError> {
        self.read(load_briefs_tx)
    }

    fn load_game(&self, game_id: &str) -> Result<Option<StoredGame>, StoreError> {
        let id = game_id.to_string();
        self.read(move |c| Ok(load_games_tx(c, Some(&id))?.pop()))
    }

    fn put_summary(&self, game_id: &str, summary: Vec<u8>, seq: u64, last_move_ms: i64) -> Done {
        let id = game_id.to_string();
        let mut behind = self.behind.lock().unwrap_or_else(|e| e.into_inner());
        behind.remove(&id);
        // The flag stays set when entries past `seq` are already stored.
        self.writer.submit(Box::new(move |tx| {
            tx.prepare_cached(
                "UPDATE games SET summary = ?2, seq = ?3, last_move_ms = ?4,
                        seq_behind = EXISTS (SELECT 1 FROM choices WHERE game_id = ?1 AND seq > ?3)
                  WHERE id = ?1",
            )?
            .execute(params![id, summary, i64::try_from(seq).unwrap_or(i64::MAX), last_move_ms])?;
            Ok(())
        }))
    }
}

fn load_briefs_tx(conn: &Connection) -> Result<Vec<StoredBrief>, StoreError> {
    let mut st = conn.prepare(
        "SELECT id, created_ms, status, ended_ms, last_move_ms, seq, summary, seq_behind FROM games
          ORDER BY created_ms, id",
    )?;
    // Appends write only the entry (and flag the game once after each
    // stored summary), so a flagged game's stored seq and last move may be
    // older than its newest entry: it takes them from that entry (one
    // descent of the choices key). Only games played since their last
    // summary are flagged, so a start reads few.
    let mut newest = conn.prepare("SELECT seq, at_ms FROM choices WHERE game_id = ?1 ORDER BY seq DESC LIMIT 1")?;
    let rows = st.query_map([], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, Option<i64>>(3)?,
            r.get::<_, Option<i64>>(4)?,
            r.get::<_, Option<i64>>(5)?,
            r.get::<_, Option<Vec<u8>>>(6)?,
            r.get::<_, bool>(7)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (id, created_ms, status, ended_ms, mut last_move_ms, mut seq, summary, behind) = row?;
        let status =
            Status::parse(&status).ok_or_else(|| StoreError::Corrupt(format!("game {id}: status '{status}'")))?;
        if behind && seq.is_some() {
            let entry = newest.query_row([&id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))).optional()?;
            if let Some((s, at)) = entry {
                (seq, last_move_ms) = (Some(s), Some(at));
            }
        }
        let seq = seq.map(|n| n.max(0) as u64);
        out.push(StoredBrief { id, created_ms, status, ended_ms, last_move_ms, seq, summary });
    }
    Ok(out)
}

fn create_game_tx(tx: &Connection, game: &GameRecord, entries: &[EntryRecord]) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO games (id, kind, config_json, created_ms, status, forked_from, forked_at_seq, idle_timeout_s,
                                creator_hash, ended_ms, resamples, seed_chosen, clock)
             VALUES (?1, ?11, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?12, ?13)",
        params![
            game.id,
            game.config_json,
            game.created_ms,
            game.status.as_str(),
            game.forked_from.as_ref().map(|f| f.0.as_str()),
            game.forked_from.as_ref().map(|f| i64::try_from(f.1).unwrap_or(i64::MAX)),
            game.idle_timeout_s,
            game.creator_hash,
            game.ended_ms,
            Resample::encode(&game.resamples),
            game.game_type,
            game.seed_chosen,
            game.clock.as_ref().and_then(|c| serde_json::to_string(c).ok()),
        ],
    )?;
    for s in &game.seats {
        put_seat_tx(tx, &game.id, s)?;
    }
    for e in entries {
        insert_entry(tx, &game.id, e)?;
    }
    Ok(())
}

/// Every stored game, or only `only` when given.
fn load_games_tx(conn: &Connection, only: Option<&str>) -> Result<Vec<StoredGame>, StoreError> {
    let mut games: Vec<StoredGame> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    {
        let mut st = conn.prepare(
            "SELECT id, config_json, created_ms, status, forked_from, forked_at_seq, idle_timeout_s,
                        creator_hash, ended_ms, resamples, kind, seed_chosen, clock FROM games
                 WHERE ?1 IS NULL OR id = ?1 ORDER BY created_ms, id",
        )?;
        let rows = st.query_map([only], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, Option<i64>>(5)?,
                r.get::<_, u32>(6)?,
                r.get::<_, Option<String>>(7)?,
                r.get::<_, Option<i64>>(8)?,
                r.get::<_, Option<String>>(9)?,
                r.get::<_, String>(10)?,
                r.get::<_, bool>(11)?,
                r.get::<_, Option<String>>(12)?,
            ))
        })?;
        for row in rows {
            let (
                id,
                config_json,
                created_ms,
                status,
                forked_from,
                forked_at,
                idle_timeout_s,
                creator_hash,
                ended_ms,
                rs,
                game_type,
                seed_chosen,
                clock,
            ) = row?;
            let clock = match clock {
                None => None,
                Some(text) => Some(
                    serde_json::from_str(&text)
                        .map_err(|e| StoreError::Corrupt(format!("game {id}: clock '{text}': {e}")))?,
                ),
            };
            let resamples = match rs {
                None => Vec::new(),
                Some(text) => Resample::decode(&text)
                    .ok_or_else(|| StoreError::Corrupt(format!("game {id}: resamples '{text}'")))?,
            };
            let status =
                Status::parse(&status).ok_or_else(|| StoreError::Corrupt(format!("game {id}: status '{status}'")))?;
            let forked_from = forked_from.map(|f| (f, forked_at.unwrap_or(0).max(0) as u64));
            index.insert(id.clone(), games.len());
            games.push(StoredGame {
                record: GameRecord {
                    id,
                    game_type,
                    config_json,
                    created_ms,
                    status,
                    forked_from,
                    idle_timeout_s,
                    seats: Vec::new(),
                    creator_hash,
                    ended_ms,
                    resamples,
                    seed_chosen,
                    clock,
                },
                entries: Vec::new(),
            });
        }
    }
    {
        let mut st = conn.prepare(
            "SELECT game_id, seat, open_to, token_hash, claimed_by FROM seats
                          WHERE ?1 IS NULL OR game_id = ?1 ORDER BY game_id, seat",
        )?;
        let rows = st.query_map([only], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, u8>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, Option<String>>(4)?,
            ))
        })?;
        for row in rows {
            let (game_id, seat, open_to, token_hash, claimed_by) = row?;
            let Some(&i) = index.get(&game_id) else { continue };
            let open_to = OpenTo::parse(&open_to)
                .ok_or_else(|| StoreError::Corrupt(format!("game {game_id} seat {seat}: open_to '{open_to}'")))?;
            let claim = match (token_hash, claimed_by) {
                (Some(token_hash), Some(by)) => Some(Claim {
                    token_hash,
                    by: ClaimantKind::parse(&by)
                        .ok_or_else(|| StoreError::Corrupt(format!("game {game_id} seat {seat}: by '{by}'")))?,
                }),
                _ => None,
            };
            games[i].record.seats.push(SeatRecord { seat, open_to, claim });
        }
    }
    {
        let mut st = conn.prepare(
            "SELECT game_id, seq, seat, option_id, at_ms, kind, played_by, clock_ms FROM choices
                          WHERE ?1 IS NULL OR game_id = ?1 ORDER BY game_id, seq",
        )?;
        let rows = st.query_map([only], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, u8>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, Option<String>>(6)?,
                r.get::<_, Option<i64>>(7)?,
            ))
        })?;
        for row in rows {
            let (game_id, seq, seat, option_id, at_ms, kind, played_by, clock_ms) = row?;
            let Some(&i) = index.get(&game_id) else { continue };
            let kind = EntryKind::parse(&kind)
                .ok_or_else(|| StoreError::Corrupt(format!("game {game_id} entry {seq}: kind '{kind}'")))?;
            let played_by = played_by.as_deref().and_then(crate::model::PlayedBy::parse);
            games[i].entries.push(EntryRecord {
                seq: seq.max(0) as u64,
                kind,
                seat,
                option_id,
                at_ms,
                played_by,
                clock_ms,
            });
        }
    }
    Ok(games)
}

/// Everything in memory: for tests and benchmarks, lost at exit.
#[derive(Default)]
pub struct MemoryStore {
    /// The games, in creation order.
    games: Mutex<Vec<StoredGame>>,
    /// Stored summaries by game id.
    summaries: Mutex<BTreeMap<String, Vec<u8>>>,
}

impl MemoryStore {
    fn with_game<T>(&self, id: &str, f: impl FnOnce(&mut StoredGame) -> T) -> Result<T, StoreError> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let g = games.iter_mut().find(|g| g.record.id == id).ok_or_else(|| StoreError::NoSuchGame(id.to_string()))?;
        Ok(f(g))
    }
}

impl GameStore for MemoryStore {
    fn create_game(&self, game: &GameRecord, entries: &[EntryRecord]) -> Result<(), StoreError> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.push(StoredGame { record: game.clone(), entries: entries.to_vec() });
        Ok(())
    }

    fn append_entry(&self, game_id: &str, entry: &EntryRecord) -> Result<(), StoreError> {
        self.with_game(game_id, |g| g.entries.push(entry.clone()))
    }

    fn set_clock(&self, game_id: &str, clock: &crate::clock::ClockRecord) -> Result<(), StoreError> {
        self.with_game(game_id, |g| g.record.clock = Some(clock.clone()))
    }

    fn put_seat(&self, game_id: &str, seat: &SeatRecord) -> Result<(), StoreError> {
        self.with_game(game_id, |g| {
            if let Some(s) = g.record.seats.iter_mut().find(|s| s.seat == seat.seat) {
                *s = seat.clone();
            }
        })
    }

    fn set_status(&self, game_id: &str, status: Status, ended_ms: Option<i64>) -> Result<(), StoreError> {
        self.with_game(game_id, |g| {
            g.record.status = status;
            g.record.ended_ms = ended_ms;
        })
    }

    fn delete_game(&self, game_id: &str) -> Result<(), StoreError> {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).retain(|g| g.record.id != game_id);
        self.summaries.lock().unwrap_or_else(|e| e.into_inner()).remove(game_id);
        Ok(())
    }

    fn load_briefs(&self) -> Result<Vec<StoredBrief>, StoreError> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let summaries = self.summaries.lock().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<StoredBrief> = games
            .iter()
            .map(|g| {
                let s = summaries.get(&g.record.id);
                StoredBrief {
                    id: g.record.id.clone(),
                    created_ms: g.record.created_ms,
                    status: g.record.status,
                    ended_ms: g.record.ended_ms,
                    last_move_ms: s.map(|_| g.entries.last().map_or(g.record.created_ms, |e| e.at_ms)),
                    seq: s.map(|_| g.entries.len() as u64),
                    summary: s.cloned(),
                }
            })
            .collect();
        out.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        Ok(out)
    }

    fn load_game(&self, game_id: &str) -> Result<Option<StoredGame>, StoreError> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        Ok(games.iter().find(|g| g.record.id == game_id).cloned())
    }

    fn put_summary(&self, game_id: &str, summary: Vec<u8>, _seq: u64, _last_move_ms: i64) -> Done {
        // Seq and last move are read from the entries.
        self.summaries.lock().unwrap_or_else(|e| e.into_inner()).insert(game_id.to_string(), summary);
        let (tx, rx) = tokio::sync::oneshot::channel();
        let _ = tx.send(Ok(()));
        rx
    }
}

/// Looks a game up in a loaded list (test helper and diagnostics).
#[cfg(test)]
pub fn find<'a>(games: &'a [StoredGame], id: &str) -> Option<&'a StoredGame> {
    games.iter().find(|g| g.record.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::hash_token;

    fn record(id: &str) -> GameRecord {
        GameRecord {
            id: id.into(),
            game_type: "xodus".into(),
            config_json: "{}".into(),
            created_ms: 1,
            status: Status::Open,
            forked_from: None,
            idle_timeout_s: 30,
            seats: (0..3).map(|seat| SeatRecord { seat, open_to: OpenTo::Human, claim: None }).collect(),
            creator_hash: Some(hash_token("creator")),
            ended_ms: None,
            resamples: Vec::new(),
            seed_chosen: false,
            clock: None,
        }
    }

    fn entry(seq: u64) -> EntryRecord {
        let kind = if seq == 3 { EntryKind::Undo } else { EntryKind::Choice };
        EntryRecord { seq, kind, seat: 0, option_id: format!("opt{seq}"), at_ms: 5, played_by: None, clock_ms: None }
    }

    fn roundtrip(store: &dyn GameStore) {
        store.create_game(&record("a"), &[]).expect("create a");
        let mut b = record("b");
        b.forked_from = Some(("a".into(), 2));
        b.resamples = vec![Resample { at_seq: 1, seed: 5 }, Resample { at_seq: 2, seed: u64::MAX - 3 }];
        b.seed_chosen = true;
        store.create_game(&b, &[entry(1), entry(2)]).expect("create b");
        store.append_entry("a", &entry(1)).expect("append");
        store.append_entry("b", &entry(3)).expect("append");
        let claim = Claim { token_hash: hash_token("t"), by: ClaimantKind::Ai };
        store.put_seat("a", &SeatRecord { seat: 1, open_to: OpenTo::Any, claim: Some(claim.clone()) }).expect("seat");
        store.set_status("a", Status::Finished, Some(77)).expect("status");
        let all = store.load_all().expect("load");
        assert_eq!(all.len(), 2);
        let a = find(&all, "a").expect("a");
        assert_eq!(a.record.status, Status::Finished);
        assert_eq!(a.record.ended_ms, Some(77));
        assert_eq!(a.record.creator_hash, Some(hash_token("creator")));
        assert_eq!(a.record.seats[1].claim, Some(claim));
        assert_eq!(a.record.seats[1].open_to, OpenTo::Any);
        assert_eq!(a.entries, vec![entry(1)]);
        assert!(!a.record.seed_chosen, "a drawn seed");
        let b = find(&all, "b").expect("b");
        assert!(b.record.seed_chosen, "a chosen seed is remembered");
        assert_eq!(b.record.forked_from, Some(("a".into(), 2)));
        assert_eq!(
            b.record.resamples,
            vec![Resample { at_seq: 1, seed: 5 }, Resample { at_seq: 2, seed: u64::MAX - 3 }],
            "all 64 bits kept"
        );
        assert_eq!(b.entries.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![1, 2, 3]);
        store.delete_game("a").expect("delete");
        let all = store.load_all().expect("load");
        assert!(find(&all, "a").is_none(), "deleted");
        assert!(find(&all, "b").is_some(), "others kept");
    }

    #[test]
    fn sqlite_roundtrip() {
        roundtrip(&SqliteStore::open_in_memory().expect("open"));
    }

    #[test]
    fn memory_roundtrip() {
        roundtrip(&MemoryStore::default());
    }

    #[test]
    fn sqlite_refuses_duplicate_seq_and_unknown_game() {
        let s = SqliteStore::open_in_memory().expect("open");
        s.create_game(&record("a"), &[]).expect("create");
        s.append_entry("a", &entry(1)).expect("first");
        assert!(s.append_entry("a", &entry(1)).is_err(), "same seq twice");
        assert!(s.append_entry("zz", &entry(1)).is_err(), "foreign key");
        assert!(s.set_status("zz", Status::Open, None).is_err());
    }

    #[test]
    fn sqlite_upgrades_a_database_made_before_undo_and_idle_seats() {
        let conn = Connection::open_in_memory().expect("open");
        conn.execute_batch(
            "CREATE TABLE games (id TEXT PRIMARY KEY, kind TEXT NOT NULL, config_json TEXT NOT NULL,
                 created_ms INTEGER NOT NULL, status TEXT NOT NULL, forked_from TEXT, forked_at_seq INTEGER);
             CREATE TABLE choices (game_id TEXT NOT NULL, seq INTEGER NOT NULL, seat INTEGER NOT NULL,
                 option_id TEXT NOT NULL, at_ms INTEGER NOT NULL, PRIMARY KEY (game_id, seq));
             INSERT INTO games VALUES ('old', 'xodus', '{}', 1, 'open', NULL, NULL);
             INSERT INTO choices VALUES ('old', 1, 0, 'start:0', 2);
             INSERT INTO choices VALUES ('deleted-long-ago', 1, 0, 'start:0', 2);",
        )
        .expect("old schema");
        let store = SqliteStore::open(conn, std::time::Duration::ZERO, "FULL").expect("upgrade");
        let all = store.load_all().expect("load");
        let old = find(&all, "old").expect("old game");
        assert_eq!(old.record.idle_timeout_s, 0);
        assert_eq!(old.record.creator_hash, None);
        assert!(old.record.resamples.is_empty());
        assert_eq!(old.entries[0].kind, EntryKind::Choice);
        store.append_entry("old", &entry(2)).expect("append after upgrade");
        let schema: String = store
            .read(|c| Ok(c.query_row("SELECT sql FROM sqlite_master WHERE name = 'choices'", [], |r| r.get(0))?))
            .expect("schema");
        assert!(schema.contains("WITHOUT ROWID"), "migration 4 rebuilt the choices table: {schema}");
    }

    #[test]
    fn a_new_sqlite_database_uses_small_pages() {
        let dir = std::env::temp_dir().join(format!("xodus-store-pages-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let s = SqliteStore::open_dir(&dir, std::time::Duration::ZERO).expect("open");
        let size: i64 = s.read(|c| Ok(c.pragma_query_value(None, "page_size", |r| r.get(0))?)).expect("page size");
        assert_eq!(size, 1024);
        drop(s);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_durable_store_fsyncs_every_commit_and_only_the_bench_ceiling_does_not() {
        let dir = std::env::temp_dir().join(format!("xodus-store-sync-{}", std::process::id()));
        let mode = |s: &SqliteStore| -> i64 {
            s.read(|c| Ok(c.pragma_query_value(None, "synchronous", |r| r.get(0))?)).expect("synchronous")
        };
        let _ = std::fs::remove_dir_all(&dir);
        let durable = SqliteStore::open_dir(&dir, std::time::Duration::ZERO).expect("open");
        assert_eq!(mode(&durable), 2, "synchronous=FULL");
        drop(durable);
        let unsynced = SqliteStore::open_dir_without_fsync(&dir, std::time::Duration::ZERO).expect("open unsynced");
        assert_eq!(mode(&unsynced), 0, "synchronous=OFF");
        unsynced.create_game(&record("u"), &[]).expect("create");
        unsynced.append_entry("u", &entry(1)).expect("append");
        drop(unsynced);
        let again = SqliteStore::open_dir(&dir, std::time::Duration::ZERO).expect("reopen");
        assert_eq!(mode(&again), 2, "the setting is the connection's, not the file's");
        assert_eq!(again.load_all().expect("load")[0].entries, vec![entry(1)]);
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The `seq_behind` flag of `id`.
    fn behind(s: &SqliteStore, id: &str) -> bool {
        let id = id.to_string();
        s.read(move |c| Ok(c.query_row("SELECT seq_behind FROM games WHERE id = ?1", [&id], |r| r.get(0))?))
            .expect("flag")
    }

    fn summary(s: &SqliteStore, id: &str, seq: u64) {
        s.put_summary(id, vec![1, 2], seq, 4).blocking_recv().expect("answer").expect("summary");
    }

    #[test]
    fn sqlite_briefs_of_games_played_since_their_summary_take_seq_and_last_move_from_the_newest_entry() {
        let s = SqliteStore::open_in_memory().expect("open");
        for id in ["a", "over", "fresh"] {
            s.create_game(&record(id), &[]).expect("create");
            summary(&s, id, 0);
        }
        assert!(!behind(&s, "a"), "a summary and nothing after it");
        // Appending writes the entry, and flags the game once.
        s.append_entry("a", &entry(1)).expect("append");
        assert!(behind(&s, "a"));
        summary(&s, "a", 1);
        assert!(!behind(&s, "a"), "the summary caught up");
        s.append_entry("a", &EntryRecord { at_ms: 9, ..entry(2) }).expect("append");
        assert!(behind(&s, "a"), "flagged again after the new summary");
        // A game that ended with no summary after its last entry (a kill -9
        // in between) is flagged too.
        s.append_entry("over", &entry(1)).expect("append");
        s.set_status("over", Status::Finished, Some(9)).expect("over");
        let briefs = s.load_briefs().expect("briefs");
        let brief = |id: &str| briefs.iter().find(|b| b.id == id).map(|b| (b.seq, b.last_move_ms)).expect("brief");
        assert_eq!(brief("a"), (Some(2), Some(9)), "from the newest entry");
        assert_eq!(brief("over"), (Some(1), Some(5)), "from the newest entry");
        assert_eq!(brief("fresh"), (Some(0), Some(4)), "not flagged: the copies stored with the summary");
    }

    #[test]
    fn a_summary_older_than_the_stored_entries_leaves_the_game_flagged() {
        let s = SqliteStore::open_in_memory().expect("open");
        s.create_game(&record("a"), &[]).expect("create");
        s.append_entry("a", &entry(1)).expect("append");
        s.append_entry("a", &entry(2)).expect("append");
        summary(&s, "a", 1);
        assert!(behind(&s, "a"), "entry 2 is past the summary's seq");
        assert_eq!(s.load_briefs().expect("briefs")[0].seq, Some(2));
    }

    #[test]
    fn sqlite_survives_reopen() {
        let dir = std::env::temp_dir().join(format!("xodus-store-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        {
            let s = SqliteStore::open_dir(&dir, std::time::Duration::ZERO).expect("open");
            s.create_game(&record("a"), &[]).expect("create");
            s.append_entry("a", &entry(1)).expect("append");
        }
        let s = SqliteStore::open_dir(&dir, std::time::Duration::ZERO).expect("reopen");
        let all = s.load_all().expect("load");
        assert_eq!(all[0].entries, vec![entry(1)]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
