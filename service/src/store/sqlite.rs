//! The embedded default store: SQLite in one file of the data directory,
//! written by one thread that commits concurrent games' requests together
//! (`writer.rs`), the directory locked for this process (`dir_lock.rs`).

use super::writer::Writer;
use super::{Done, GameStore, StoreError};
use crate::dir_lock::DataDirLock;
use crate::model::{
    Claim, ClaimantKind, EntryKind, EntryRecord, GameRecord, OpenTo, Resample, SeatRecord, Status, StoredBrief,
    StoredGame, TalkRecord,
};
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;

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
    /// The data directory's lock (none for an in-memory database): no
    /// other process opens the directory while this store is open.
    _dir_lock: Option<DataDirLock>,
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
        let lock = DataDirLock::acquire(dir)?;
        let mut store = Self::open(Connection::open(dir.join("xodus.sqlite3"))?, poll, synchronous)?;
        store._dir_lock = Some(lock);
        Ok(store)
    }

    /// An in-memory SQLite database (tests).
    #[cfg(test)]
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        Self::open(Connection::open_in_memory()?, std::time::Duration::ZERO, "FULL")
    }

    pub(super) fn open(
        mut conn: Connection,
        poll: std::time::Duration,
        synchronous: &str,
    ) -> Result<SqliteStore, StoreError> {
        // Small pages for a new database (an existing one keeps its own):
        // a commit writes every page it dirtied to the WAL before its
        // fsync, and the choices of a batch land on as many pages as it
        // has games, so 1 KiB pages cut what each fsync carries.
        conn.pragma_update(None, "page_size", 1024)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", synchronous)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        crate::store::migrations::migrate(&mut conn)?;
        Ok(SqliteStore { writer: Writer::start(conn, poll)?, behind: Mutex::default(), _dir_lock: None })
    }

    /// Runs `f` on the writer thread and waits for its commit.
    fn write(&self, f: impl FnOnce(&Connection) -> Result<(), StoreError> + Send + 'static) -> Result<(), StoreError> {
        self.writer.run_blocking(Box::new(f))
    }

    /// Runs the read `f` on the writer thread and returns what it read.
    pub(super) fn read<T: Send + 'static>(
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

    fn append_talk(&self, game_id: &str, line: &TalkRecord) -> Result<(), StoreError> {
        let (id, json) = (game_id.to_string(), crate::store::talk_to_json(line)?);
        let talk_seq = i64::try_from(line.talk_seq).map_err(|_| StoreError::Corrupt("talk_seq too large".into()))?;
        self.write(move |tx| {
            tx.prepare_cached("INSERT INTO talk (game_id, talk_seq, line) VALUES (?1, ?2, ?3)")?
                .execute(params![id, talk_seq, json])?;
            Ok(())
        })
    }

    fn put_mutes(&self, game_id: &str, mutes: &crate::model::MuteRecord) -> Result<(), StoreError> {
        let (id, json, row) =
            (game_id.to_string(), crate::store::mutes_to_json(mutes)?, crate::model::MuteRecord::row(mutes.seat));
        self.write(move |tx| {
            tx.prepare_cached(
                "INSERT INTO talk (game_id, talk_seq, line) VALUES (?1, ?2, ?3)
                 ON CONFLICT (game_id, talk_seq) DO UPDATE SET line = excluded.line",
            )?
            .execute(params![id, row, json])?;
            Ok(())
        })
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
            tx.execute("DELETE FROM talk WHERE game_id = ?1", params![id])?;
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
                talk: Vec::new(),
                mutes: Vec::new(),
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
    {
        let mut st = conn.prepare(
            "SELECT game_id, talk_seq, line FROM talk WHERE ?1 IS NULL OR game_id = ?1 ORDER BY game_id, talk_seq",
        )?;
        let rows =
            st.query_map([only], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get::<_, String>(2)?)))?;
        for row in rows {
            let (game_id, talk_seq, line) = row?;
            let Some(&i) = index.get(&game_id) else { continue };
            let g = &mut games[i];
            crate::store::talk_row(&game_id, talk_seq, &line, &mut g.talk, &mut g.mutes)?;
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    //! What only SQLite has: its file, its pragmas, its migrations from
    //! before versions and the `seq_behind` flag. The contract both stores
    //! keep is tested in `store/tests.rs`.
    use super::*;
    use crate::store::tests::{entry, record};

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
        let old = crate::store::find(&all, "old").expect("old game");
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
    fn sqlite_flags_a_game_once_after_each_summary() {
        let s = SqliteStore::open_in_memory().expect("open");
        s.create_game(&record("a"), &[]).expect("create");
        summary(&s, "a", 0);
        assert!(!behind(&s, "a"), "a summary and nothing after it");
        // Appending writes the entry, and flags the game once.
        s.append_entry("a", &entry(1)).expect("append");
        assert!(behind(&s, "a"));
        summary(&s, "a", 1);
        assert!(!behind(&s, "a"), "the summary caught up");
        s.append_entry("a", &entry(2)).expect("append");
        assert!(behind(&s, "a"), "flagged again after the new summary");
    }

    #[test]
    fn a_summary_older_than_the_stored_entries_leaves_the_game_flagged() {
        let s = SqliteStore::open_in_memory().expect("open");
        s.create_game(&record("a"), &[]).expect("create");
        s.append_entry("a", &entry(1)).expect("append");
        s.append_entry("a", &entry(2)).expect("append");
        summary(&s, "a", 1);
        assert!(behind(&s, "a"), "entry 2 is past the summary's seq");
    }
}
