//! Upkeep, run periodically by the server: marks silent human seats idle
//! (offered to AI stand-ins), takes back the seats whose holders are gone
//! (seat leases: no open stream and nothing heard for the lease time; an
//! AI holder's seats all at once, a human's when the game waits on one),
//! ends as abandoned the live games nobody has
//! moved for the abandonment time, deletes the ended games whose
//! retention time has passed, and lets games nobody touched for
//! `Limits::evict_idle` leave memory (they are replayed when touched again).

use super::{GameData, Manager, Slot, blocking, turned_on};

/// The most passes the server makes for forfeited seats of one game in one
/// round of upkeep (a game of several forfeited seats cannot hog it).
const MAX_PASSES_PER_TICK: usize = 64;
use crate::clock::OnTimeout;
use crate::model::{ClaimantKind, PlayedBy, Presence, Status, now_ms};
use std::sync::Arc;
use tabletop::pb;
use tracing::{info, warn};

impl Manager {
    /// Marks as idle every human seat the game has waited on for longer
    /// than its idle timeout.
    pub async fn mark_idle_seats(&self) {
        let now = tokio::time::Instant::now();
        for slot in self.all_slots() {
            let mut d = slot.data.lock().await;
            if d.evicted || d.record.idle_timeout_s == 0 || d.is_over() {
                continue;
            }
            let timeout = std::time::Duration::from_secs(u64::from(d.record.idle_timeout_s));
            let mut changed = false;
            for s in d.deciders.clone() {
                let i = usize::from(s);
                let human = d.record.seats[i].claim.as_ref().is_some_and(|c| c.by == ClaimantKind::Human);
                let p = &mut d.presence[i];
                if human && !p.idle && now.duration_since(p.since) >= timeout {
                    p.idle = true;
                    changed = true;
                    info!(game = %slot.id, seat = s, "seat idle: offered to AI agents until its holder returns");
                }
            }
            if changed {
                self.announce(pb::LobbyChange::Seat, d.summary());
            }
        }
    }

    /// Seat leases. An AI holder that has no stream open on a seat and has
    /// not been heard from for `Limits::ai_seat_lease` is gone: the seat is
    /// freed for the AI pool whether or not the game waits on it, so a
    /// killed agent's seats all come free together. A human holder of a
    /// seat the game waits on gets three times `Limits::seat_lease`; then
    /// that seat and every other seat of the game whose human holder is
    /// gone as long go to AI stand-ins until their holders return. A
    /// stand-in silent for `seat_lease` while the game waits on it gives
    /// way to another.
    pub async fn take_back_lapsed_seats(&self) {
        let lease = self.limits.seat_lease;
        if lease.is_zero() {
            return;
        }
        let ai_lease = self.limits.ai_seat_lease.min(lease);
        let now = tokio::time::Instant::now();
        for slot in self.all_slots() {
            let mut d = slot.data.lock().await;
            if d.evicted || d.is_over() {
                continue;
            }
            let mut changed = false;
            let mut humans_gone = false;
            for i in 0..d.record.seats.len() {
                let s = i as super::Seat;
                let Some(claim) = d.record.seats[i].claim.clone() else { continue };
                let p = &d.presence[i];
                let waits = d.deciders.contains(&s);
                let silent = now.duration_since(slot.last_heard(i, p.since));
                let streaming = slot.streaming(i);
                match claim.by {
                    _ if p.idle && waits && p.stand_in.is_some() && silent >= lease => {
                        d.presence[i].stand_in = None;
                        d.presence[i].since = now;
                        changed = true;
                        info!(game = %slot.id, seat = s, "stand-in silent past the lease: the seat is offered to another");
                    }
                    _ if p.idle => {}
                    ClaimantKind::Ai if !streaming && silent >= ai_lease => {
                        let mut freed = d.record.seats[i].clone();
                        freed.claim = None;
                        if let Err(e) = self.save_seat(&slot.id, &mut d, freed).await {
                            warn!(game = %slot.id, seat = s, error = %e, "could not free a lapsed seat; will try again");
                            continue;
                        }
                        d.presence[i] = Presence::now();
                        changed = true;
                        info!(game = %slot.id, seat = s, "AI seat's holder gone past its lease: seat freed for the AI pool");
                    }
                    ClaimantKind::Human if waits && !streaming && silent >= lease * 3 => humans_gone = true,
                    _ => {}
                }
            }
            if humans_gone {
                for i in 0..d.record.seats.len() {
                    let human = d.record.seats[i].claim.as_ref().is_some_and(|c| c.by == ClaimantKind::Human);
                    let p = &d.presence[i];
                    if human
                        && !p.idle
                        && !slot.streaming(i)
                        && now.duration_since(slot.last_heard(i, p.since)) >= lease * 3
                    {
                        d.presence[i].idle = true;
                        changed = true;
                        info!(game = %slot.id, seat = i, "human seat's holder gone past the lease: offered to AI stand-ins until it returns");
                    }
                }
            }
            if changed {
                self.announce(pb::LobbyChange::Seat, d.summary());
            }
        }
    }

    /// Turn clocks: a seat the game waits on alone whose time ran out gets
    /// the game's timeout policy (an AI stand-in until its holder returns,
    /// the server's pass, or a forfeit, after which the server passes for
    /// it whenever the game waits on it).
    pub async fn enforce_clocks(&self) {
        let now = now_ms();
        for slot in self.all_slots() {
            let mut d = slot.data.lock().await;
            // A forfeited seat is passed for at once, as often as the game
            // comes back to it (bounded per round of upkeep).
            for _ in 0..MAX_PASSES_PER_TICK {
                if !self.clock_tick(&slot, &mut d, now).await {
                    break;
                }
            }
        }
    }

    /// One clock check of one game: true when the server passed for a seat
    /// (the game may wait on a seat out of time again).
    async fn clock_tick(&self, slot: &Slot, d: &mut GameData, now: i64) -> bool {
        {
            if d.evicted || d.is_over() {
                return false;
            }
            let (Some(rec), Some(clocks)) = (d.record.clock.clone(), d.clocks.as_ref()) else { return false };
            let Some(seat) = crate::clock::Clocks::running(&rec, &d.deciders) else { return false };
            let i = usize::from(seat);
            let forfeited = rec.forfeited(seat);
            if !forfeited && clocks.remaining(seat, true, now) > 0 {
                return false;
            }
            let first_time = !clocks.timed_out.get(i).copied().unwrap_or(true);
            if let Some(t) = d.clocks.as_mut().and_then(|c| c.timed_out.get_mut(i)) {
                *t = true;
            }
            let pass = match rec.on_timeout {
                _ if forfeited => true,
                OnTimeout::StandIn => {
                    if !d.presence[i].idle {
                        d.presence[i].idle = true;
                        info!(game = %slot.id, seat, "seat out of time: offered to AI stand-ins until its holder returns");
                        self.announce(pb::LobbyChange::Seat, d.summary());
                    }
                    false
                }
                OnTimeout::Skip => true,
                OnTimeout::Forfeit => {
                    if let Err(e) = self.forfeit(slot, d, seat, "seat out of time").await {
                        warn!(game = %slot.id, seat, error = %e, "could not store a forfeit; will try again");
                        return false;
                    }
                    true
                }
            };
            if !pass {
                return false;
            }
            let Some(option) = d.game.timeout_option(seat) else { return false };
            if first_time || !forfeited {
                info!(game = %slot.id, seat, "seat out of time: the server passes for it");
            }
            match self.choose(slot, d, seat, &option, PlayedBy::Server).await {
                Ok(_) => true,
                Err(e) => {
                    warn!(game = %slot.id, seat, error = %e, "the server's pass for a seat out of time failed");
                    false
                }
            }
        }
    }

    /// Makes `seat` forfeit (stored before it takes effect): ranked last,
    /// never a winner, passed for by the server from then on.
    pub(super) async fn forfeit(
        &self,
        slot: &Slot,
        d: &mut GameData,
        seat: crate::game::Seat,
        why: &str,
    ) -> Result<(), crate::error::ServiceError> {
        let Some(mut rec) = d.record.clock.clone() else { return Ok(()) };
        if rec.forfeited(seat) {
            return Ok(());
        }
        rec.forfeited.push(seat);
        let (store, id, stored) = (Arc::clone(&self.store), slot.id.clone(), rec.clone());
        blocking(move || store.set_clock(&id, &stored)).await?;
        d.record.clock = Some(rec);
        d.expel_votes.remove(&seat);
        info!(game = %slot.id, seat, why, "the seat forfeits, and the server passes for it");
        self.announce(pb::LobbyChange::Seat, d.summary());
        Ok(())
    }

    /// Ends as abandoned every live game with no move for the abandonment
    /// time, and deletes every ended game past its retention time, in
    /// memory or not.
    pub async fn end_and_sweep(&self) {
        let now = now_ms();
        let abandon_ms = i64::try_from(self.limits.abandon_after.as_millis()).unwrap_or(i64::MAX);
        let retain_ms = i64::try_from(self.limits.retention.as_millis()).unwrap_or(i64::MAX);
        let due = |last_move_ms: i64| abandon_ms > 0 && now.saturating_sub(last_move_ms) >= abandon_ms;
        let expired = |ended: Option<i64>| retain_ms > 0 && ended.is_some_and(|e| now.saturating_sub(e) >= retain_ms);
        // Games out of memory: those to abandon are replayed (the outcome
        // needs the game); those to delete are deleted from the store.
        let stored = self
            .index
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .all(|b| if b.status.is_over() { expired(b.ended_ms) } else { due(b.last_move_ms) });
        for (id, brief) in stored {
            if self.games.read().unwrap_or_else(|e| e.into_inner()).contains_key(&id) {
                continue;
            }
            if brief.status.is_over() {
                let (store, gid) = (Arc::clone(&self.store), id.clone());
                if let Err(e) = blocking(move || store.delete_game(&gid)).await {
                    warn!(game = %id, error = %e, "could not delete an ended game; will try again");
                    continue;
                }
                self.index.write().unwrap_or_else(|e| e.into_inner()).remove(&id);
                info!(game = %id, "ended game deleted: its retention time has passed");
            } else {
                match self.game(&id).await {
                    // Its owner, another node, abandons it.
                    Ok(_) | Err(crate::error::ServiceError::Elsewhere { .. }) => {}
                    Err(e) => warn!(game = %id, error = %e, "could not load a game to abandon it"),
                }
            }
        }
        for slot in self.all_slots() {
            let mut d = slot.data.lock().await;
            if d.evicted {
                continue;
            }
            if !d.is_over() && due(d.last_move_ms) {
                let (store, id) = (Arc::clone(&self.store), slot.id.clone());
                if let Err(e) = blocking(move || store.set_status(&id, Status::Abandoned, Some(now))).await {
                    warn!(game = %slot.id, error = %e, "could not store the abandonment; will try again");
                    continue;
                }
                d.record.status = Status::Abandoned;
                d.record.ended_ms = Some(now);
                self.game_ended(&d);
                info!(game = %slot.id, seq = d.seq(), "game abandoned: no choice for the abandonment time");
                self.announce(pb::LobbyChange::Status, d.summary());
                slot.closed.send_replace(true);
            } else if d.is_over() && expired(d.record.ended_ms) {
                let (store, id) = (Arc::clone(&self.store), slot.id.clone());
                if let Err(e) = blocking(move || store.delete_game(&id)).await {
                    warn!(game = %slot.id, error = %e, "could not delete an ended game; will try again");
                    continue;
                }
                d.evicted = true;
                self.games.write().unwrap_or_else(|e| e.into_inner()).remove(&slot.id);
                self.index.write().unwrap_or_else(|e| e.into_inner()).remove(&slot.id);
                slot.closed.send_replace(true);
                info!(game = %slot.id, "ended game deleted: its retention time has passed");
            } else if self.may_evict(&slot, &d, now) {
                self.evict(&slot, &mut d);
            }
        }
    }

    /// Whether a game may leave memory: untouched for the eviction time,
    /// nobody streaming it, and no idle seat or stand-in (memory only) to
    /// lose.
    fn may_evict(&self, slot: &Slot, d: &GameData, now: i64) -> bool {
        let after = i64::try_from(self.limits.evict_idle.as_millis()).unwrap_or(i64::MAX);
        after > 0
            && now.saturating_sub(slot.touched_ms.load(std::sync::atomic::Ordering::Relaxed)) >= after
            && slot.updates.receiver_count() == 0
            && (d.is_over() || d.record.idle_timeout_s == 0)
            && d.presence.iter().all(|p| !p.idle && p.stand_in.is_none())
    }

    /// Takes a game out of memory; its brief stays in the index.
    fn evict(&self, slot: &Slot, d: &mut GameData) {
        d.evicted = true;
        self.remember(&d.summary(), d.last_move_ms);
        if let (false, Some(ip)) = (d.is_over(), d.creator_ip) {
            self.evicted_ips.lock().unwrap_or_else(|e| e.into_inner()).insert(slot.id.clone(), ip);
        }
        self.games.write().unwrap_or_else(|e| e.into_inner()).remove(&slot.id);
        self.store.disown(&slot.id);
        tracing::debug!(game = %slot.id, "game left memory (untouched for the eviction time)");
    }

    /// Starts the periodic upkeep; it ends at shutdown.
    pub fn spawn_upkeep(self: &Arc<Self>) {
        let me = Arc::clone(self);
        let mut shutdown = self.shutdown.subscribe();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_millis(250));
            let mut n: u32 = 0;
            loop {
                tokio::select! {
                    _ = turned_on(&mut shutdown) => return,
                    _ = tick.tick() => {
                        me.mark_idle_seats().await;
                        me.take_back_lapsed_seats().await;
                        me.enforce_clocks().await;
                        n = n.wrapping_add(1);
                        if n.is_multiple_of(4) {
                            me.end_and_sweep().await;
                        }
                    }
                }
            }
        });
    }
}
