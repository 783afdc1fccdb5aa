//! The games manager: every hosted game, its seats and its history, behind
//! one `Arc`. Each game has its own async mutex (so games never wait for
//! each other) and its own broadcast channel of live updates. The order of
//! a choice is: check seat, token and expected seq, apply on a copy of the
//! engine state, make the entry durable in the store, and only then swap
//! the new state in, broadcast it and acknowledge. A refused or failed
//! choice therefore changes nothing.
//!
//! Its API is split by concern (`api`): `Manager::lobby()`, `seats()`,
//! `play()`, `streams()` and `talk()` each give a type with that concern's
//! calls; the operator's side (load, upkeep, nodes, shutdown) is on
//! `Manager` itself.
//!
//! One job per submodule: `lobby` (create, fork, list, history), `index`
//! (the lobby's record of every stored game), `seats` (claims, releases,
//! tokens, stand-ins), `play` (SubmitChoice and Undo), `commit_wait` (a
//! choice waiting for its commit), `play_stream` (Play: one seat's choices
//! over one stream), `streams` (StreamGame and WatchLobby), `rendered` (a
//! seq's states rendered once and shared), `replays` (GetView and a past
//! seq as one viewer saw it), `spectators` (spectator policies, view
//! grants), `talk` (table talk), `upkeep` (idle seats, seat leases, turn
//! clocks, abandoned games, retention of ended games), `nodes` (several
//! nodes on one store), and `tests`. This file holds the shared records and loads games lazily: at
//! start only the index is read; a game is replayed when first touched and
//! leaves memory again after `Limits::evict_idle` untouched. On a store
//! shared by several nodes, a game is loaded only once this node owns it
//! (`nodes` keeps ownership, the other nodes' lobby changes and the
//! take-over of a dead node's games).

mod api;
mod commit_wait;
mod index;
mod lobby;
mod nodes;
mod play;
mod play_stream;
mod rendered;
mod replays;
mod seats;
mod spectators;
mod streams;
mod talk;
#[cfg(test)]
mod tests;
mod upkeep;

use crate::error::ServiceError;
use crate::game::{HostedGame, Registry, Seat, Viewer};
use crate::limits::{ClientCaps, Limits};
use crate::model::{GameRecord, Presence, Status, StoredGame};
use crate::replay::{Recipe, Step, undo_seat};
use crate::store::GameStore;
use crate::wire;
use index::{Brief, Index};
use rendered::Rendered;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};
use tabletop::pb;
use tokio::sync::{Mutex, OwnedMutexGuard, broadcast, watch};
use tracing::{info, warn};

pub use replays::ViewRequest;
pub use seats::Credentials;
pub use streams::{StreamItem, StreamOptions};

/// One live update of a game, shared by all its subscribers.
struct Live {
    /// The accepted entry.
    entry: crate::model::EntryRecord,
    /// What it caused, in wire form.
    events: Vec<pb::Event>,
    /// The state after it, rendered once per viewer for the reply, GetView
    /// and every subscriber.
    rendered: Arc<Rendered>,
    /// Every seat's clock just after it (empty without a clock).
    clocks: Vec<pb::SeatClock>,
    /// The seats that forfeited, for the outcome's ranking.
    forfeited: Vec<Seat>,
}

/// A game state for `viewer`: the game gives its own typed part, the
/// service builds the rest (the decision's options go only to the seats that
/// may take them, unless the game shows every viewer the same state).
fn state_for(game_id: &str, seq: u64, game: &dyn HostedGame, viewer: Viewer, undo: Option<Seat>) -> pb::GameState {
    pb::GameState {
        game_id: game_id.to_string(),
        seq,
        decision: Some(crate::secrecy::shown_decision(game, viewer)),
        outcome: game.outcome().map(|o| o.to_wire()),
        state_hash: game.state_hash(),
        viewer_seat: match viewer {
            Viewer::Seat(s) => Some(u32::from(s)),
            Viewer::Spectator => None,
        },
        can_undo: matches!(viewer, Viewer::Seat(v) if Some(v) == undo),
        detail: Some(game.view_detail(viewer)),
        game_type: game.type_name().to_string(),
        schema_version: game.schema_version(),
        clocks: Vec::new(),
    }
}

/// The mutable part of a hosted game.
struct GameData {
    /// Seats, status, config JSON (what the store holds).
    record: GameRecord,
    /// How to rebuild the game from its entries.
    recipe: Recipe,
    /// The game after every entry (shared with streams).
    game: Arc<dyn HostedGame>,
    /// The accepted entries, seq 1 first.
    entries: Vec<crate::model::EntryRecord>,
    /// The effective choices (undone ones removed), in order.
    steps: Vec<Step>,
    /// Presence of each seat (idle marks, stand-ins); memory only.
    presence: Vec<Presence>,
    /// Seats the pending decision waits on.
    deciders: Vec<Seat>,
    /// Every seat's time, for a game with a clock (rebuilt at load from
    /// the entries).
    clocks: Option<crate::clock::Clocks>,
    /// Votes to expel a seat out of time, by target: the voting seats
    /// (memory only; void once the target chooses itself).
    expel_votes: std::collections::BTreeMap<Seat, std::collections::BTreeSet<Seat>>,
    /// The address that created the game in this server's life, counted
    /// against its per-client cap while the game is live; memory only.
    creator_ip: Option<IpAddr>,
    /// When the game last moved (created or an entry), ms since the epoch:
    /// the abandonment clock.
    last_move_ms: i64,
    /// Set when the game left memory: whoever waited on its lock looks it
    /// up again.
    evicted: bool,
    /// The states of the current seq as rendered so far (renewed when the
    /// game, its seq or its undo seat changed).
    rendered: Option<Arc<Rendered>>,
    /// Spectator policy and the delayed spectators' cursor (spectators.rs).
    spectating: spectators::Spectators,
    /// The table talk, mutes and allowances (talk.rs).
    talk: talk::Talk,
}

impl GameData {
    fn new(
        record: GameRecord,
        recipe: Recipe,
        game: Box<dyn HostedGame>,
        entries: Vec<crate::model::EntryRecord>,
        steps: Vec<Step>,
    ) -> GameData {
        let presence = record.seats.iter().map(|_| Presence::now()).collect();
        let deciders = deciders(game.as_ref());
        let last_move_ms = entries.last().map_or(record.created_ms, |e| e.at_ms.max(record.created_ms));
        let clocks = record.clock.as_ref().map(|c| crate::clock::Clocks::rebuild(c, record.seats.len(), &entries));
        let mut d = GameData {
            clocks,
            expel_votes: Default::default(),
            record,
            recipe,
            game: Arc::from(game),
            entries,
            steps,
            presence,
            deciders,
            creator_ip: None,
            last_move_ms,
            evicted: false,
            rendered: None,
            spectating: Default::default(),
            talk: Default::default(),
        };
        if d.record.status != Status::Abandoned {
            d.record.status = d.derived_status();
        }
        if d.is_over() && d.record.ended_ms.is_none() {
            // Ended before end times were stored: retained from now on.
            d.record.ended_ms = Some(crate::model::now_ms());
        }
        d
    }

    /// After a move: seats the game starts waiting on start their clock.
    fn moved(&mut self) {
        let deciders = deciders(self.game.as_ref());
        for &s in &deciders {
            if !self.deciders.contains(&s)
                && let Some(p) = self.presence.get_mut(usize::from(s))
            {
                p.since = tokio::time::Instant::now();
            }
        }
        self.deciders = deciders;
    }

    fn seq(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Whether the game is over (finished or abandoned).
    fn is_over(&self) -> bool {
        self.record.status.is_over()
    }

    /// The lobby view; the seed only when the game is over or `creator`.
    fn summary_for(&self, creator: bool) -> pb::GameSummary {
        let seed = ((creator && self.creator_may_know_the_seed()) || self.is_over()).then(|| self.own_seed());
        let kind = self.recipe.game_type.wire_kind();
        let mut summary = wire::summary(&self.record, &self.presence, self.game.as_ref(), kind, self.seq(), seed);
        self.show_spectating(&mut summary);
        summary
    }

    /// Whether the creator may read this live game's seed (and fork it
    /// exactly): only where no seat holds a secret of its own. In a game
    /// with private hands the creator is often a seated rival, and the seed
    /// would show it every hand.
    fn creator_may_know_the_seed(&self) -> bool {
        self.game.same_state_for_every_viewer()
    }

    /// The lobby view anyone may see.
    fn summary(&self) -> pb::GameSummary {
        self.summary_for(false)
    }

    /// The seed that drives this game's own hidden part: the config's, or
    /// a resampled fork's own.
    fn own_seed(&self) -> u64 {
        self.recipe.own_seed()
    }

    fn undo_seat(&self) -> Option<Seat> {
        if self.is_over() { None } else { undo_seat(self.game.as_ref(), self.steps.last()) }
    }

    fn state(&mut self, game_id: &str, viewer: Viewer) -> pb::GameState {
        if self.record.status == Status::Abandoned {
            let mut state = state_for(game_id, self.seq(), self.game.as_ref(), viewer, None);
            state.outcome = Some(self.abandoned_outcome());
            return state;
        }
        let mut state = self.rendered(game_id).state(viewer);
        self.clock_the(&mut state);
        state
    }

    /// Puts the clocks in a state of the current seq, and ranks the
    /// forfeited seats last in its outcome.
    fn clock_the(&self, state: &mut pb::GameState) {
        state.clocks = self.clock_wire();
        if let Some(o) = state.outcome.take() {
            state.outcome = Some(crate::clock::with_forfeits(o, self.forfeited()));
        }
    }

    /// Every seat's clock now (empty without a clock).
    fn clock_wire(&self) -> Vec<pb::SeatClock> {
        match (&self.record.clock, &self.clocks) {
            (Some(rec), Some(c)) => c.wire(rec, &self.deciders, self.is_over(), crate::model::now_ms()),
            _ => Vec::new(),
        }
    }

    /// The seats that forfeited.
    fn forfeited(&self) -> &[Seat] {
        self.record.clock.as_ref().map_or(&[], |c| c.forfeited.as_slice())
    }

    /// The rendering of the current seq, made anew when it is not of it.
    fn rendered(&mut self, game_id: &str) -> Arc<Rendered> {
        let (seq, undo) = (self.seq(), self.undo_seat());
        match &self.rendered {
            Some(r) if r.is_of(seq, &self.game, undo) => Arc::clone(r),
            _ => {
                let r = Arc::new(Rendered::new(Arc::from(game_id), seq, Arc::clone(&self.game), undo));
                self.rendered = Some(Arc::clone(&r));
                r
            }
        }
    }

    /// The outcome of an abandoned game.
    fn abandoned_outcome(&self) -> pb::Outcome {
        wire::abandoned_outcome(self.game.as_ref())
    }

    /// Whether `token` is the creator's.
    fn is_creator(&self, token: &str) -> Result<bool, ServiceError> {
        if token.is_empty() {
            return Ok(false);
        }
        match &self.record.creator_hash {
            Some(h) if *h == crate::model::hash_token(token) => Ok(true),
            _ => Err(ServiceError::BadCredentials(format!(
                "creator_token is not the creator token of game {}; leave it empty to act as anyone",
                self.record.id
            ))),
        }
    }

    /// Status implied by seats and outcome.
    fn derived_status(&self) -> Status {
        if self.game.outcome().is_some() {
            Status::Finished
        } else if self.record.seats.iter().all(|s| s.claim.is_some()) {
            Status::Playing
        } else {
            Status::Open
        }
    }
}

/// One hosted game.
struct Slot {
    /// Its id.
    id: String,
    /// Its state; held across the store write of a choice.
    data: Arc<Mutex<GameData>>,
    /// When it was last touched, ms since the epoch (eviction clock).
    touched_ms: AtomicI64,
    /// Live updates for streams.
    updates: broadcast::Sender<Arc<Live>>,
    /// Set when the game is abandoned or deleted: its streams end.
    closed: watch::Sender<bool>,
    /// Each line of table talk as it is said, for streams that follow it.
    talk: broadcast::Sender<Arc<crate::model::TalkRecord>>,
    /// Its public summary after each change to a seat, for streams that
    /// follow the seats.
    seats: watch::Sender<Option<Arc<pb::GameSummary>>>,
    /// Streams (StreamGame, Play) each seat's holder has open now: a seat
    /// with one is held, however long its holder thinks (seat leases).
    holder_streams: Vec<AtomicUsize>,
    /// When each seat's holder last closed a stream: the seat was heard
    /// from until then (seat leases count from it).
    holder_left: Vec<std::sync::Mutex<Option<tokio::time::Instant>>>,
    /// Set when another node took the game over: its streams here end
    /// with UNAVAILABLE, so their clients reopen them (on any node).
    moved: std::sync::atomic::AtomicBool,
}

/// Counts one open stream of a seat's holder for as long as it lives.
pub(super) struct HolderStream {
    slot: Arc<Slot>,
    seat: usize,
}

impl HolderStream {
    /// Counts a stream opened by the holder of `seat`.
    fn open(slot: &Arc<Slot>, seat: Seat) -> Option<HolderStream> {
        let counter = slot.holder_streams.get(usize::from(seat))?;
        counter.fetch_add(1, Ordering::SeqCst);
        Some(HolderStream { slot: Arc::clone(slot), seat: usize::from(seat) })
    }
}

impl Drop for HolderStream {
    fn drop(&mut self) {
        if let Some(counter) = self.slot.holder_streams.get(self.seat) {
            counter.fetch_sub(1, Ordering::SeqCst);
        }
        if let Some(left) = self.slot.holder_left.get(self.seat) {
            *left.lock().unwrap_or_else(|e| e.into_inner()) = Some(tokio::time::Instant::now());
        }
    }
}

impl Slot {
    /// Whether the holder of seat `i` has a stream open on it now.
    pub(super) fn streaming(&self, i: usize) -> bool {
        self.holder_streams.get(i).is_some_and(|n| n.load(Ordering::SeqCst) > 0)
    }

    /// When seat `i`'s holder was last heard from: `since` (its last
    /// call, or when the game began waiting on it) or the close of its
    /// last stream, whichever is later.
    pub(super) fn last_heard(&self, i: usize, since: tokio::time::Instant) -> tokio::time::Instant {
        let left = self.holder_left.get(i).and_then(|l| *l.lock().unwrap_or_else(|e| e.into_inner()));
        left.map_or(since, |l| l.max(since))
    }

    fn new(id: String, data: GameData) -> Slot {
        let (updates, _) = broadcast::channel(LIVE_CAPACITY);
        let (closed, _) = watch::channel(false);
        let (seats, _) = watch::channel(None);
        let (talk, _) = broadcast::channel(LIVE_CAPACITY);
        let holder_streams = (0..data.record.seats.len()).map(|_| AtomicUsize::new(0)).collect();
        let holder_left = (0..data.record.seats.len()).map(|_| std::sync::Mutex::new(None)).collect();
        Slot {
            id,
            data: Arc::new(Mutex::new(data)),
            touched_ms: crate::model::now_ms().into(),
            updates,
            closed,
            talk,
            seats,
            holder_streams,
            holder_left,
            moved: Default::default(),
        }
    }
}

/// The games manager.
pub struct Manager {
    /// Where games are made durable.
    store: Arc<dyn GameStore>,
    /// The games in memory by id.
    games: RwLock<HashMap<String, Arc<Slot>>>,
    /// Every stored game, in memory or not.
    index: RwLock<Index>,
    /// Creators' addresses of live games that left memory (for the
    /// per-client cap when they come back).
    evicted_ips: std::sync::Mutex<HashMap<String, IpAddr>>,
    /// Games not over, all clients together (what `max_games` caps).
    live_games: AtomicUsize,
    /// Lobby changes for WatchLobby.
    lobby: broadcast::Sender<pb::WatchLobbyResponse>,
    /// The numbers.
    limits: Limits,
    /// Per-client counters.
    caps: Arc<ClientCaps>,
    /// Set to true when the server begins to shut down; streams end.
    shutdown: watch::Sender<bool>,
    /// The last creation stamp handed out: stamps strictly increase, so
    /// ListGames (ordered by stamp) lists games in the order they were made
    /// even when two land in the same millisecond.
    last_created_ms: AtomicI64,
    /// The games this server hosts.
    registry: Registry,
    /// Choices waiting for their commit now (`commit_wait.rs`).
    waiting_commits: AtomicUsize,
    /// Seats' grants of their views to watchers (spectators.rs; memory only).
    grants: Arc<spectators::Grants>,
    /// Which node owns the games this node forwarded calls for, and since
    /// when it was known (`nodes.rs`).
    owners: std::sync::Mutex<HashMap<String, (String, std::time::Instant)>>,
    /// One load at a time per game: the others wait and find it loaded
    /// (a game is replayed, and its lease taken, once).
    loading: std::sync::Mutex<HashMap<String, Arc<Mutex<()>>>>,
}

const LIVE_CAPACITY: usize = 256;

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, crate::store::StoreError> + Send + 'static,
) -> Result<T, ServiceError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ServiceError::Internal(format!("storage task: {e}")))?
        .map_err(Into::into)
}

/// Completes once `rx` turns true (shutdown begun, game closed).
async fn turned_on(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|&v| v).await;
}

/// The seats the pending decision waits on.
fn deciders(game: &dyn HostedGame) -> Vec<Seat> {
    game.deciders()
}

impl Manager {
    /// A manager over `store`. Only the lobby's record of each game is
    /// read; games are replayed when first touched. Games stored before
    /// summaries were (and live games whose seats may go idle) are replayed
    /// now. Games that no longer replay are logged and left out.
    pub async fn load(store: Arc<dyn GameStore>, limits: Limits, registry: Registry) -> Result<Manager, ServiceError> {
        let briefs = {
            let store = Arc::clone(&store);
            blocking(move || store.load_briefs()).await?
        };
        let count = briefs.len();
        let last_created_ms = briefs.iter().map(|g| g.created_ms).max().unwrap_or(0);
        let mut index = Index::default();
        let mut replay_now = Vec::new();
        for b in briefs {
            let brief = match (&b.summary, b.seq, b.last_move_ms) {
                (Some(bytes), Some(seq), Some(last)) => Brief::decode(&b, bytes, seq, last),
                _ => None,
            };
            match brief {
                Some(brief) => {
                    if !brief.status.is_over() && brief.idle_timeout_s > 0 {
                        replay_now.push(b.id.clone());
                    }
                    index.put(b.created_ms, &b.id, brief);
                }
                None => replay_now.push(b.id),
            }
        }
        let live = index.all(|b| !b.status.is_over()).len();
        let (lobby, _) = broadcast::channel(1024);
        let (shutdown, _) = watch::channel(false);
        let manager = Manager {
            store,
            games: RwLock::new(HashMap::new()),
            index: RwLock::new(index),
            evicted_ips: Default::default(),
            live_games: AtomicUsize::new(live),
            lobby,
            limits,
            caps: Arc::new(ClientCaps::default()),
            shutdown,
            last_created_ms: last_created_ms.into(),
            registry,
            waiting_commits: AtomicUsize::new(0),
            grants: Default::default(),
            owners: Default::default(),
            loading: Default::default(),
        };
        let replayed = replay_now.len();
        for id in replay_now {
            let known = manager.index.read().unwrap_or_else(|e| e.into_inner()).get(&id).is_some();
            match manager.load_game(&id).await {
                Ok(slot) if !known => {
                    let d = slot.data.lock().await;
                    if !d.is_over() {
                        manager.live_games.fetch_add(1, Ordering::SeqCst);
                    }
                    manager.remember(&d.summary(), d.last_move_ms);
                }
                Ok(_) => {}
                // Another node of the cluster hosts it.
                Err(ServiceError::Elsewhere { .. }) => {}
                Err(e) => warn!(game = %id, error = %e, "stored game does not replay; not hosted"),
            }
        }
        info!(stored = count, replayed, live = manager.live_games.load(Ordering::SeqCst), "games indexed");
        Ok(manager)
    }

    /// Replays stored game `id` into memory (or finds it there), once
    /// this node owns it.
    async fn load_game(&self, id: &str) -> Result<Arc<Slot>, ServiceError> {
        let gate =
            Arc::clone(self.loading.lock().unwrap_or_else(|e| e.into_inner()).entry(id.to_string()).or_default());
        let loaded = {
            let _turn = gate.lock().await;
            let found = self.games.read().unwrap_or_else(|e| e.into_inner()).get(id).cloned();
            match found {
                Some(slot) if self.store.owns(id) => Ok(slot),
                _ => self.load_game_now(id).await,
            }
        };
        let mut loading = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        if Arc::strong_count(&gate) <= 2 {
            loading.remove(id);
        }
        loaded
    }

    /// [`Manager::load_game`], this caller's turn come.
    async fn load_game_now(&self, id: &str) -> Result<Arc<Slot>, ServiceError> {
        self.own(id).await?;
        let stored = {
            let (store, id) = (Arc::clone(&self.store), id.to_string());
            blocking(move || store.load_game(&id)).await?
        };
        let not_found = || ServiceError::NotFound(id.chars().take(80).collect());
        let StoredGame { record, entries, talk, mutes } = stored.ok_or_else(not_found)?;
        let game_type = self.registry.get(&record.game_type).ok_or_else(|| {
            warn!(game = %id, game_type = %record.game_type, "stored game of a type this server does not host");
            not_found()
        })?;
        let recipe = Recipe {
            game_type,
            config_json: record.config_json.clone(),
            resamples: record.resamples.clone(),
            seed_chosen: record.seed_chosen,
        };
        let (game, steps) = recipe.replay(&entries).map_err(|e| {
            warn!(game = %id, error = %e, "stored game does not replay; not hosted");
            ServiceError::Internal(format!("game {id} does not replay"))
        })?;
        // A seat's mutes hold only while the holder who chose them holds it.
        let holders: Vec<Option<String>> =
            record.seats.iter().map(|s| s.claim.as_ref().map(|c| c.token_hash.clone())).collect();
        let mut data = GameData::new(record, recipe, game, entries, steps);
        data.talk = talk::Talk::stored(talk, mutes, &holders);
        let stored = self.index.read().unwrap_or_else(|e| e.into_inner()).get(id).map(|b| b.summary(id));
        data.restore_spectating(stored.as_ref());
        data.creator_ip = self.evicted_ips.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
        let mut games = self.games.write().unwrap_or_else(|e| e.into_inner());
        let slot = games.entry(id.to_string()).or_insert_with(|| Arc::new(Slot::new(id.to_string(), data)));
        Ok(Arc::clone(slot))
    }

    /// The store games are kept in.
    pub fn store(&self) -> Arc<dyn GameStore> {
        Arc::clone(&self.store)
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A receiver that turns true when the server begins to shut down.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Ends every stream (called when the server begins to shut down).
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// Number of hosted games (live and ended, in memory or not).
    pub fn game_count(&self) -> usize {
        self.index.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Game `id`, loaded into memory when it is not, and its lock.
    async fn game(&self, id: &str) -> Result<(Arc<Slot>, OwnedMutexGuard<GameData>), ServiceError> {
        loop {
            let found = self.games.read().unwrap_or_else(|e| e.into_inner()).get(id).cloned();
            let slot = match found {
                Some(slot) if !self.store.owns(id) => {
                    self.moved_away(&slot).await;
                    continue;
                }
                Some(slot) => slot,
                // Another node may have made it a moment ago: the store
                // says.
                None if self.store.cluster().is_none()
                    && self.index.read().unwrap_or_else(|e| e.into_inner()).get(id).is_none() =>
                {
                    return Err(ServiceError::NotFound(id.chars().take(80).collect()));
                }
                None => self.load_game(id).await?,
            };
            let d = Arc::clone(&slot.data).lock_owned().await;
            if !d.evicted {
                slot.touched_ms.store(crate::model::now_ms(), Ordering::Relaxed);
                return Ok((slot, d));
            }
        }
    }

    fn all_slots(&self) -> Vec<Arc<Slot>> {
        self.games.read().unwrap_or_else(|e| e.into_inner()).values().cloned().collect()
    }

    /// Keeps the lobby's record of a game (in the index and in the store)
    /// up to date with its public summary.
    fn remember(&self, summary: &pb::GameSummary, last_move_ms: i64) {
        let brief = Brief::of(summary, last_move_ms);
        let bytes = brief.summary.to_vec();
        self.index.write().unwrap_or_else(|e| e.into_inner()).put(summary.created_unix_ms, &summary.game_id, brief);
        // Not awaited: the writer keeps the order of requests, and a lost
        // summary only makes the lobby show an older one until the game is
        // touched again.
        drop(self.store.put_summary(&summary.game_id, bytes, summary.seq, last_move_ms));
    }

    fn announce(&self, change: pb::LobbyChange, game: pb::GameSummary) {
        let last_move = self
            .index
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&game.game_id)
            .map_or(game.created_unix_ms, |b| b.last_move_ms);
        self.remember(&game, last_move);
        if change == pb::LobbyChange::Seat {
            let slot = self.games.read().unwrap_or_else(|e| e.into_inner()).get(&game.game_id).cloned();
            if let Some(slot) = slot {
                slot.seats.send_replace(Some(Arc::new(game.clone())));
            }
        }
        // No receiver is fine: nobody watches the lobby.
        let _ = self.lobby.send(pb::WatchLobbyResponse { change: change as i32, game: Some(game) });
    }

    /// Bookkeeping when a game stops being live (finished or abandoned):
    /// it no longer counts against the caps.
    fn game_ended(&self, d: &GameData) {
        let _ = self.live_games.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| Some(n.saturating_sub(1)));
        self.caps.game_ended(d.creator_ip);
    }
}
