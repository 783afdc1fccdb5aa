//! The lobby index: a small record of every stored game, loaded or not, in
//! creation order, so ListGames and WatchLobby page over many thousands of
//! games without replaying them. A brief keeps the public summary as the
//! protobuf bytes last announced; games in memory are summarised live.

use crate::model::{Status, StoredBrief};
use prost::Message;
use std::collections::{BTreeMap, HashMap};
use std::ops::Bound;
use tabletop::pb;

/// What the lobby knows of one game.
#[derive(Clone, Debug)]
pub(super) struct Brief {
    /// Status.
    pub status: Status,
    /// Whether a seat may be claimed (or stood in for) now.
    pub open: bool,
    /// The game's idle timeout (seconds).
    pub idle_timeout_s: u32,
    /// Last move, ms since the epoch (abandonment clock).
    pub last_move_ms: i64,
    /// When it ended.
    pub ended_ms: Option<i64>,
    /// Entries.
    pub seq: u64,
    /// The public summary, protobuf bytes.
    pub summary: Box<[u8]>,
}

/// The wire status as the model's.
fn status_of(s: i32) -> Status {
    match pb::GameStatus::try_from(s) {
        Ok(pb::GameStatus::Playing) => Status::Playing,
        Ok(pb::GameStatus::Finished) => Status::Finished,
        Ok(pb::GameStatus::Abandoned) => Status::Abandoned,
        _ => Status::Open,
    }
}

impl Brief {
    /// The brief of a public summary.
    pub fn of(summary: &pb::GameSummary, last_move_ms: i64) -> Brief {
        let status = status_of(summary.status);
        Brief {
            status,
            open: !status.is_over() && summary.seats.iter().any(|s| !s.claimed || (s.idle && !s.stand_in)),
            idle_timeout_s: summary.idle_timeout_seconds,
            last_move_ms,
            ended_ms: (summary.ended_unix_ms != 0).then_some(summary.ended_unix_ms),
            seq: summary.seq,
            summary: summary.encode_to_vec().into_boxed_slice(),
        }
    }

    /// The brief of a stored row: its summary bytes (`None` when they do
    /// not decode), with the row's own columns winning.
    pub fn decode(row: &StoredBrief, bytes: &[u8], seq: u64, last_move_ms: i64) -> Option<Brief> {
        let mut s = pb::GameSummary::decode(bytes).ok()?;
        s.seq = seq;
        s.created_unix_ms = row.created_ms;
        s.created_at = Some(crate::wire::timestamp(row.created_ms));
        s.status = crate::wire::status(row.status) as i32;
        s.ended_unix_ms = row.ended_ms.unwrap_or(0);
        s.ended_at = row.ended_ms.map(crate::wire::timestamp);
        Some(Brief::of(&s, last_move_ms))
    }

    /// The public summary of game `id`.
    pub fn summary(&self, id: &str) -> pb::GameSummary {
        let mut s = pb::GameSummary::decode(&*self.summary).unwrap_or_default();
        s.game_id = id.to_string();
        s.seq = self.seq;
        s
    }
}

/// Every stored game's brief, by (creation stamp, id).
#[derive(Default)]
pub(super) struct Index {
    order: BTreeMap<(i64, String), Brief>,
    created: HashMap<String, i64>,
}

impl Index {
    /// Adds or replaces a game's brief.
    pub fn put(&mut self, created_ms: i64, id: &str, brief: Brief) {
        if let Some(old) = self.created.insert(id.to_string(), created_ms)
            && old != created_ms
        {
            self.order.remove(&(old, id.to_string()));
        }
        self.order.insert((created_ms, id.to_string()), brief);
    }

    /// A game's brief.
    pub fn get(&self, id: &str) -> Option<&Brief> {
        let &ms = self.created.get(id)?;
        self.order.get(&(ms, id.to_string()))
    }

    /// Forgets a game.
    pub fn remove(&mut self, id: &str) {
        if let Some(ms) = self.created.remove(id) {
            self.order.remove(&(ms, id.to_string()));
        }
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Up to `n` games after `after` that `keep` admits, oldest first.
    pub fn page(
        &self,
        after: Option<&(i64, String)>,
        n: usize,
        mut keep: impl FnMut(&Brief) -> bool,
    ) -> Vec<(String, Brief)> {
        let lower = after.map_or(Bound::Unbounded, |a| Bound::Excluded(a.clone()));
        self.order
            .range((lower, Bound::Unbounded))
            .filter(|(_, b)| keep(b))
            .take(n)
            .map(|((_, id), b)| (id.clone(), b.clone()))
            .collect()
    }

    /// Every game's id and brief that `keep` admits.
    pub fn all(&self, mut keep: impl FnMut(&Brief) -> bool) -> Vec<(String, Brief)> {
        self.order.iter().filter(|(_, b)| keep(b)).map(|((_, id), b)| (id.clone(), b.clone())).collect()
    }
}
