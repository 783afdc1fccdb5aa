//! Several nodes on one shared store: a game is loaded only by the node
//! that owns it (the others forward to it, `grpc.rs`), a game whose lease
//! this node lost leaves its memory, live games of a node that died are
//! taken over, and the other nodes' lobby changes reach this node's index
//! and its WatchLobby streams. With a store of one node's own, every game
//! is this node's and none of this runs.

use super::{Manager, Slot, blocking, index::Brief};
use crate::error::ServiceError;
use crate::model::StoredBrief;
use crate::store::StoreError;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tabletop::pb;
use tracing::{debug, info, warn};

/// How often a node looks for games whose owner's lease ran out.
const TAKE_OVER_EVERY: Duration = Duration::from_secs(1);
/// Most games taken over at once.
const TAKE_OVER_AT_ONCE: i64 = 64;
/// How many rounds of take-over between two rounds of balance.
const BALANCE_EVERY: u32 = 2;
/// Most games a node hands to others in one round of balance.
const HAND_OVER_AT_ONCE: i64 = 32;
/// How long a game's owner, once looked up, is trusted for forwarding
/// without asking the store again (a call the owner refuses as not its own
/// forgets it sooner).
const OWNER_KNOWN_FOR: Duration = Duration::from_secs(2);

impl Manager {
    /// Makes this node the owner of game `id` before it loads it.
    pub(super) async fn own(&self, id: &str) -> Result<(), ServiceError> {
        if self.store.cluster().is_none() {
            return Ok(());
        }
        let (store, gid) = (Arc::clone(&self.store), id.to_string());
        let owned = tokio::task::spawn_blocking(move || store.own(&gid))
            .await
            .map_err(|e| ServiceError::Internal(format!("storage task: {e}")))?;
        match owned {
            Ok(None) => Ok(()),
            Ok(Some(epoch)) => {
                info!(game = %id, epoch, "this node owns the game now");
                Ok(())
            }
            Err(StoreError::LeaseHeld { owner, .. }) => Err(ServiceError::Elsewhere { game: id.to_string(), owner }),
            Err(StoreError::NoSuchGame(_)) => {
                // Deleted by another node's retention, or never made.
                self.index.write().unwrap_or_else(|e| e.into_inner()).remove(id);
                Err(ServiceError::NotFound(id.chars().take(80).collect()))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Where game `id` is served: `None` here (or nowhere: the local call
    /// says why), or the name of the node that owns it.
    pub async fn locate(&self, id: &str) -> Result<Option<String>, ServiceError> {
        if self.store.cluster().is_none() {
            return Ok(None);
        }
        let here = self.games.read().unwrap_or_else(|e| e.into_inner()).contains_key(id);
        if here && self.store.owns(id) {
            return Ok(None);
        }
        if let Some((owner, since)) = self.owners.lock().unwrap_or_else(|e| e.into_inner()).get(id)
            && since.elapsed() < OWNER_KNOWN_FOR
        {
            return Ok(Some(owner.clone()));
        }
        match self.game(id).await {
            Ok(_) | Err(ServiceError::NotFound(_)) => Ok(None),
            Err(ServiceError::Elsewhere { owner, .. }) => {
                let mut owners = self.owners.lock().unwrap_or_else(|e| e.into_inner());
                owners.retain(|_, (_, since)| since.elapsed() < OWNER_KNOWN_FOR);
                owners.insert(id.to_string(), (owner.clone(), std::time::Instant::now()));
                Ok(Some(owner))
            }
            Err(e) => Err(e),
        }
    }

    /// Forgets who owns game `id` (a forwarded call found no owner there):
    /// the next call asks the store again.
    pub fn forget_owner(&self, id: &str) {
        self.owners.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    /// Game `slot` is no longer this node's (its lease was lost): it leaves
    /// memory and its streams end with UNAVAILABLE.
    pub(super) async fn moved_away(&self, slot: &Arc<Slot>) {
        let mut d = slot.data.lock().await;
        if d.evicted {
            return;
        }
        d.evicted = true;
        self.games.write().unwrap_or_else(|e| e.into_inner()).remove(&slot.id);
        slot.moved.store(true, Ordering::SeqCst);
        slot.closed.send_replace(true);
        warn!(game = %slot.id, seq = d.seq(), "this node lost the game's lease; it is served by another node now");
    }

    /// Starts the cluster's background work (nothing on a store of one
    /// node's own); it ends at shutdown.
    pub fn spawn_nodes(self: &Arc<Self>) {
        let Some(cluster) = self.store.cluster() else { return };
        if let Some(mut changes) = cluster.lobby_changes() {
            let me = Arc::clone(self);
            let mut shutdown = self.shutdown.subscribe();
            tokio::spawn(async move {
                loop {
                    tokio::select! {
                        _ = super::turned_on(&mut shutdown) => return,
                        change = changes.recv() => match change {
                            Some(brief) => me.lobby_changed_elsewhere(&brief),
                            None => return,
                        },
                    }
                }
            });
        }
        let me = Arc::clone(self);
        let mut shutdown = self.shutdown.subscribe();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(TAKE_OVER_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut rounds: u32 = 0;
            loop {
                tokio::select! {
                    _ = super::turned_on(&mut shutdown) => return,
                    _ = tick.tick() => {
                        me.take_over_lapsed().await;
                        me.adopt_handed().await;
                        rounds = rounds.wrapping_add(1);
                        if rounds.is_multiple_of(BALANCE_EVERY) {
                            me.balance().await;
                        }
                        me.publish_progress();
                    }
                }
            }
        });
    }

    /// Loads the games whose leases name this node but that it does not
    /// hold: handed to it (balance), or held by its previous run under the
    /// same name (a restart takes them back at once, not a lease later).
    async fn adopt_handed(&self) {
        let store = Arc::clone(&self.store);
        let adopted = match blocking(move || store.cluster().map_or(Ok(Vec::new()), |c| c.adopt_handed())).await {
            Ok(adopted) => adopted,
            Err(e) => {
                warn!(error = %e, "looking for games handed to this node failed; retrying");
                return;
            }
        };
        for id in adopted {
            info!(game = %id, "took up a game whose lease names this node (handed over, or held by its previous run)");
            if let Err(e) = self.game(&id).await {
                warn!(game = %id, error = %e, "could not load a game handed over");
            }
        }
    }

    /// Balance: a node that owns more live games than the nodes' mean (by
    /// more than a tenth and one game) hands the excess, a few at a time,
    /// to the nodes below the mean, neediest first. Each game is handed
    /// under its lock, so between two choices; the lease's epoch is raised
    /// with it, so this node can write to it no more; its streams here end
    /// with UNAVAILABLE and their clients reopen them on any node.
    async fn balance(&self) {
        let store = Arc::clone(&self.store);
        let owned = match blocking(move || store.cluster().map_or(Ok(Vec::new()), |c| c.ownership())).await {
            Ok(owned) => owned,
            Err(e) => {
                debug!(error = %e, "reading who owns what failed; balance waits");
                return;
            }
        };
        let Some(me) = self.store.cluster().map(|c| c.node().to_string()) else { return };
        let plan = balance_plan(&me, &owned, HAND_OVER_AT_ONCE);
        if plan.is_empty() {
            return;
        }
        let mut candidates: Vec<Arc<Slot>> = self.all_slots();
        // The games that moved least recently first: a handover then cuts
        // in on no busy table.
        candidates.sort_by_key(|s| s.touched_ms.load(Ordering::Relaxed));
        let mut handed = 0usize;
        let mut targets = plan.into_iter();
        let Some(mut to) = targets.next() else { return };
        for slot in candidates {
            let mut d = slot.data.lock().await;
            if d.evicted || d.is_over() {
                continue;
            }
            let (store, id, node) = (Arc::clone(&self.store), slot.id.clone(), to.clone());
            match blocking(move || store.cluster().map_or(Ok(false), |c| c.hand_over(&id, &node))).await {
                Ok(true) => {}
                Ok(false) => continue,
                Err(e) => {
                    warn!(game = %slot.id, error = %e, "could not hand a game over; balance waits");
                    return;
                }
            }
            d.evicted = true;
            self.games.write().unwrap_or_else(|e| e.into_inner()).remove(&slot.id);
            slot.moved.store(true, Ordering::SeqCst);
            slot.closed.send_replace(true);
            info!(game = %slot.id, seq = d.seq(), to = %to, "handed the game to another node (balance)");
            handed += 1;
            match targets.next() {
                Some(next) => to = next,
                None => break,
            }
        }
        if handed > 0 {
            info!(handed, "balance: handed games to nodes below the mean");
        }
    }

    /// Takes over the live games whose owner's lease ran out and loads
    /// them, so that their clocks and timeouts go on here.
    async fn take_over_lapsed(&self) {
        let store = Arc::clone(&self.store);
        let taken = match blocking(move || store.take_over_lapsed(TAKE_OVER_AT_ONCE)).await {
            Ok(taken) => taken,
            Err(e) => {
                warn!(error = %e, "looking for games to take over failed; retrying");
                return;
            }
        };
        for id in taken {
            crate::metrics::global().lease_takeover();
            info!(game = %id, "took the game over: its owner's lease ran out");
            if let Err(e) = self.game(&id).await {
                warn!(game = %id, error = %e, "could not load a game taken over");
            }
        }
    }

    /// Stores the summary of every game here that moved since its last
    /// one (at most once a tick), so the other nodes' lobbies show its seq
    /// and last move; a game whose lock is busy waits for the next tick.
    fn publish_progress(&self) {
        for slot in self.all_slots() {
            let Ok(d) = slot.data.try_lock() else { continue };
            if d.evicted {
                continue;
            }
            let stored = self.index.read().unwrap_or_else(|e| e.into_inner()).get(&slot.id).map(|b| b.seq);
            if stored.is_some_and(|seq| seq != d.seq()) {
                self.remember(&d.summary(), d.last_move_ms);
            }
        }
    }

    /// Another node changed what the lobby shows of a game: the index
    /// learns it, and WatchLobby streams here hear of it as they would of
    /// a change made here. Older or repeated news changes nothing.
    fn lobby_changed_elsewhere(&self, row: &StoredBrief) {
        if self.games.read().unwrap_or_else(|e| e.into_inner()).contains_key(&row.id) {
            return; // This node's own game: it announced the change itself.
        }
        let (Some(bytes), Some(seq), Some(last)) = (&row.summary, row.seq, row.last_move_ms) else { return };
        let Some(brief) = Brief::decode(row, bytes, seq, last) else {
            debug!(game = %row.id, "another node's summary does not decode; left out");
            return;
        };
        let summary = brief.summary(&row.id);
        let change = {
            let mut index = self.index.write().unwrap_or_else(|e| e.into_inner());
            let change = match index.get(&row.id) {
                None => pb::LobbyChange::Created,
                Some(old) if old.seq > brief.seq || *old.summary == *brief.summary => return,
                Some(old) if old.status != brief.status => pb::LobbyChange::Status,
                Some(old) if old.summary(&row.id).seats != summary.seats => pb::LobbyChange::Seat,
                Some(_) => pb::LobbyChange::Unspecified,
            };
            let was_live = index.get(&row.id).map(|b| !b.status.is_over());
            match (was_live, brief.status.is_over()) {
                (None, false) => {
                    self.live_games.fetch_add(1, Ordering::SeqCst);
                }
                (Some(true), true) => {
                    let _ =
                        self.live_games.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| Some(n.saturating_sub(1)));
                }
                _ => {}
            }
            index.put(row.created_ms, &row.id, brief);
            change
        };
        if change != pb::LobbyChange::Unspecified {
            let _ = self.lobby.send(pb::WatchLobbyResponse { change: change as i32, game: Some(summary) });
        }
    }

    /// Gives up every game this node owns, so the other nodes take them
    /// over at once (the end of a drain); nothing on a store of one
    /// node's own.
    pub async fn release_all(&self) {
        if self.store.cluster().is_none() {
            return;
        }
        let store = Arc::clone(&self.store);
        let released = tokio::task::spawn_blocking(move || store.cluster().map(|c| c.release_all())).await;
        match released {
            Ok(Some(Ok(n))) => info!(games = n, "gave every game up to the other nodes"),
            Ok(Some(Err(e))) => warn!(error = %e, "could not give the games up; their leases run out by themselves"),
            Ok(None) => {}
            Err(e) => warn!(error = %e, "could not give the games up; their leases run out by themselves"),
        }
    }
}

/// The nodes this node (`me`) hands games to this round, one entry per
/// game (at most `at_most`): nothing unless it owns more than the mean of
/// the live nodes by more than a tenth and one game; then its excess over
/// the mean, given to the nodes below the mean, the neediest first.
fn balance_plan(me: &str, owned: &[(String, i64)], at_most: i64) -> Vec<String> {
    let nodes = owned.len() as i64;
    let Some(&(_, mine)) = owned.iter().find(|(n, _)| n == me) else { return Vec::new() };
    if nodes < 2 {
        return Vec::new();
    }
    let total: i64 = owned.iter().map(|(_, c)| c).sum();
    let mean = total as f64 / nodes as f64;
    if (mine as f64) <= mean * 1.1 + 1.0 {
        return Vec::new();
    }
    let mut excess = (mine - mean.ceil() as i64).min(at_most);
    let mut needy: Vec<(i64, &str)> = owned
        .iter()
        .filter(|(n, c)| n != me && (*c as f64) < mean.floor())
        .map(|(n, c)| (mean.floor() as i64 - c, n.as_str()))
        .collect();
    needy.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let mut plan = Vec::new();
    // Round the needy nodes, each up to its deficit.
    while excess > 0 && needy.iter().any(|(d, _)| *d > 0) {
        for (deficit, node) in needy.iter_mut() {
            if excess == 0 {
                break;
            }
            if *deficit > 0 {
                plan.push(node.to_string());
                *deficit -= 1;
                excess -= 1;
            }
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::balance_plan;

    fn owned(counts: &[(&str, i64)]) -> Vec<(String, i64)> {
        counts.iter().map(|(n, c)| (n.to_string(), *c)).collect()
    }

    #[test]
    fn a_node_above_the_mean_hands_its_excess_to_the_nodes_below_it() {
        // A node back from a restart owns nothing; the two that took its
        // games over own 500 each: each hands it a share, a round at a time.
        let back = owned(&[("a", 500), ("b", 500), ("c", 0)]);
        assert_eq!(balance_plan("a", &back, 32), vec!["c".to_string(); 32]);
        assert_eq!(balance_plan("a", &back, 1000).len(), 500 - 334);
        assert!(balance_plan("c", &back, 32).is_empty(), "the needy node hands nothing");
        // The deficit is shared among the needy, the neediest first.
        let two_needy = owned(&[("a", 90), ("b", 10), ("c", 20)]);
        let plan = balance_plan("a", &two_needy, 100);
        assert_eq!(plan.iter().filter(|n| *n == "b").count(), 30);
        assert_eq!(plan.iter().filter(|n| *n == "c").count(), 20);
        assert_eq!(plan[0], "b");
        // Within a tenth (and a game) of the mean: nothing moves.
        assert!(balance_plan("a", &owned(&[("a", 34), ("b", 33), ("c", 32)]), 32).is_empty());
        assert!(balance_plan("a", &owned(&[("a", 3), ("b", 1)]), 32).is_empty(), "one game over: no churn");
        assert!(balance_plan("a", &owned(&[("a", 40)]), 32).is_empty(), "alone");
        assert!(balance_plan("z", &back, 32).is_empty(), "a node the store does not list yet");
    }
}
