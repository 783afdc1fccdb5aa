//! Upkeep, run periodically by the server: marks silent human seats idle
//! (offered to AI stand-ins), ends as abandoned the live games nobody has
//! moved for the abandonment time, and deletes the ended games whose
//! retention time has passed.

use super::{Manager, blocking, turned_on};
use crate::model::{ClaimantKind, Status, now_ms};
use std::sync::Arc;
use tracing::{info, warn};
use xodus::pb;

impl Manager {
    /// Marks as idle every human seat the game has waited on for longer
    /// than its idle timeout.
    pub async fn mark_idle_seats(&self) {
        let now = tokio::time::Instant::now();
        for slot in self.all_slots() {
            let mut d = slot.data.lock().await;
            if d.record.idle_timeout_s == 0 || d.is_over() {
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

    /// Ends as abandoned every live game with no move for the abandonment
    /// time, and deletes every ended game past its retention time.
    pub async fn end_and_sweep(&self) {
        let now = now_ms();
        let abandon_ms = i64::try_from(self.limits.abandon_after.as_millis()).unwrap_or(i64::MAX);
        let retain_ms = i64::try_from(self.limits.retention.as_millis()).unwrap_or(i64::MAX);
        for slot in self.all_slots() {
            let mut d = slot.data.lock().await;
            if !d.is_over() && abandon_ms > 0 && now.saturating_sub(d.last_move_ms) >= abandon_ms {
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
            } else if d.is_over()
                && retain_ms > 0
                && d.record.ended_ms.is_some_and(|ended| now.saturating_sub(ended) >= retain_ms)
            {
                let (store, id) = (Arc::clone(&self.store), slot.id.clone());
                if let Err(e) = blocking(move || store.delete_game(&id)).await {
                    warn!(game = %slot.id, error = %e, "could not delete an ended game; will try again");
                    continue;
                }
                self.games.write().unwrap_or_else(|e| e.into_inner()).remove(&slot.id);
                slot.closed.send_replace(true);
                info!(game = %slot.id, "ended game deleted: its retention time has passed");
            }
        }
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
