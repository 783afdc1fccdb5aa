//! A store in memory, for tests and benchmarks: lost at exit.

use super::{Done, GameStore, StoreError};
use crate::model::{EntryRecord, GameRecord, SeatRecord, Status, StoredBrief, StoredGame, TalkRecord};
use std::collections::BTreeMap;
use std::sync::Mutex;

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
        games.push(StoredGame { record: game.clone(), entries: entries.to_vec(), talk: Vec::new(), mutes: Vec::new() });
        Ok(())
    }

    fn append_entry(&self, game_id: &str, entry: &EntryRecord) -> Result<(), StoreError> {
        self.with_game(game_id, |g| g.entries.push(entry.clone()))
    }

    fn append_talk(&self, game_id: &str, line: &TalkRecord) -> Result<(), StoreError> {
        self.with_game(game_id, |g| g.talk.push(line.clone()))
    }

    fn put_mutes(&self, game_id: &str, mutes: &crate::model::MuteRecord) -> Result<(), StoreError> {
        self.with_game(game_id, |g| {
            g.mutes.retain(|m| m.seat != mutes.seat);
            g.mutes.push(mutes.clone());
        })
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
