//! The games manager: every hosted game, its seats and its history, behind
//! one `Arc`. Each game has its own async mutex (so games never wait for
//! each other) and its own broadcast channel of live updates. The order of
//! a choice is: check seat, token and expected seq, apply on a copy of the
//! engine state, make the entry durable in the store, and only then swap
//! the new state in, broadcast it and acknowledge. A refused or failed
//! choice therefore changes nothing.
//!
//! Streams replay past updates from the history (the engine is
//! deterministic, so replaying a choice yields the very events it yielded
//! the first time), then follow the live channel; a subscriber that falls
//! behind catches up from the history again. Every stream ends when the
//! server begins to shut down.

use crate::error::ServiceError;
use crate::limits::{ClientCaps, Limits, StreamGuard};
use crate::model::{Claim, ClaimantKind, EntryKind, EntryRecord, GameRecord, OpenTo, Presence, Status, StoredGame};
use crate::model::{hash_token, new_game_id, new_token, now_ms};
use crate::store::GameStore;
use crate::wire;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, RwLock};
use tokio::sync::{Mutex, broadcast, mpsc, watch};
use tracing::{info, warn};
use xodus::convert;
use xodus::pb;
use xodus_engine::{Event, Game, GameConfig, Seat, Viewer};

/// One live update of a game, shared by all its subscribers.
struct Live {
    /// The accepted entry.
    entry: EntryRecord,
    /// What it caused.
    events: Vec<Event>,
    /// The state after it.
    game: Arc<Game>,
    /// The seat that may undo after it.
    undo_seat: Option<Seat>,
}

/// One effective choice (a choice not undone): who made it and whether it
/// may be taken back.
#[derive(Clone, Copy, Debug)]
struct Step {
    /// The seat that made it.
    seat: Seat,
    /// Nothing random or hidden happened in it.
    undoable: bool,
}

/// Event kinds that reveal nothing random or hidden: a choice whose events
/// are all of these may be undone. Anything else (dice, draws, reveals,
/// phase changes, the end of a turn or of the game) closes the door.
const UNDOABLE_EVENTS: &[&str] = &[
    "turn_started",
    "fleet_joined",
    "invite_declined",
    "ship_moved",
    "scraps_changed",
    "energy_changed",
    "xp_gained",
    "strained",
    "key_moved",
    "module_gained",
    "module_lost",
    "health_recovered",
    "damaged_removed",
];

fn undoable(events: &[Event]) -> bool {
    events.iter().all(|e| UNDOABLE_EVENTS.contains(&convert::event(e).kind.as_str()))
}

/// The seat that may undo now, if any.
fn undo_seat(game: &Game, steps: &[Step]) -> Option<Seat> {
    if game.outcome().is_some() {
        return None;
    }
    steps.last().filter(|s| s.undoable).map(|s| s.seat)
}

/// A game state for `viewer`, with `can_undo` filled in.
fn state_for(game_id: &str, seq: u64, game: &Game, viewer: Viewer, undo: Option<Seat>) -> pb::GameState {
    let mut state = convert::game_state(game_id, seq, game, viewer);
    state.can_undo = matches!(viewer, Viewer::Seat(v) if Some(v) == undo);
    state
}

/// The mutable part of a hosted game.
struct GameData {
    /// Seats, status, config JSON (what the store holds).
    record: GameRecord,
    /// The engine state after every entry (shared with streams).
    game: Arc<Game>,
    /// The accepted entries, seq 1 first.
    entries: Vec<EntryRecord>,
    /// The effective choices (undone ones removed), in order.
    steps: Vec<Step>,
    /// Presence of each seat (idle marks, stand-ins); memory only.
    presence: Vec<Presence>,
    /// Seats the pending decision waits on.
    deciders: Vec<Seat>,
}

/// Who presented a seat's token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holder {
    /// The seat's holder.
    Owner,
    /// An AI agent standing in for an idle holder.
    StandIn,
}

impl GameData {
    fn new(record: GameRecord, game: Game, entries: Vec<EntryRecord>, steps: Vec<Step>) -> GameData {
        let presence = record.seats.iter().map(|_| Presence::now()).collect();
        let deciders = game.decision().deciders;
        let mut d = GameData { record, game: Arc::new(game), entries, steps, presence, deciders };
        d.record.status = d.derived_status();
        d
    }

    /// After a move: seats the game starts waiting on start their clock.
    fn moved(&mut self) {
        let deciders = self.game.decision().deciders;
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

    fn summary(&self) -> pb::GameSummary {
        wire::summary(&self.record, &self.presence, &self.game, self.seq())
    }

    fn undo_seat(&self) -> Option<Seat> {
        undo_seat(&self.game, &self.steps)
    }

    fn state(&self, game_id: &str, viewer: Viewer) -> pb::GameState {
        state_for(game_id, self.seq(), &self.game, viewer, self.undo_seat())
    }

    /// Checks seat number and token; returns the seat, who presented the
    /// token, and whether an idle holder just came back.
    fn authenticate(&mut self, creds: &Credentials) -> Result<(Seat, Holder, bool), ServiceError> {
        let n = self.record.seats.len();
        let seat = usize::try_from(creds.seat).ok().filter(|&s| s < n).ok_or_else(|| {
            ServiceError::InvalidArgument(format!(
                "seat {} does not exist; this game has seats 0 to {}",
                creds.seat,
                n - 1
            ))
        })?;
        if creds.token.is_empty() {
            return Err(ServiceError::Unauthenticated(format!(
                "missing token for seat {seat}; claim the seat first and send its token"
            )));
        }
        let hash = hash_token(&creds.token);
        let presence = &mut self.presence[seat];
        match &self.record.seats[seat].claim {
            None => Err(ServiceError::Unauthenticated(format!("seat {seat} is not claimed; claim it first"))),
            Some(c) if c.token_hash == hash => {
                presence.since = tokio::time::Instant::now();
                let returned = presence.idle;
                presence.idle = false;
                presence.stand_in = None;
                Ok((seat as Seat, Holder::Owner, returned))
            }
            Some(_) if presence.idle && presence.stand_in.as_deref() == Some(hash.as_str()) => {
                Ok((seat as Seat, Holder::StandIn, false))
            }
            Some(_) => Err(ServiceError::Unauthenticated(format!(
                "wrong token for seat {seat} (a stand-in token stops working when the holder returns)"
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
    data: Mutex<GameData>,
    /// Live updates for streams.
    updates: broadcast::Sender<Arc<Live>>,
}

/// A seat and its token, as sent by a client.
#[derive(Clone, Debug)]
pub struct Credentials {
    /// Seat number.
    pub seat: u32,
    /// Secret token.
    pub token: String,
}

impl From<pb::SeatCredentials> for Credentials {
    fn from(c: pb::SeatCredentials) -> Credentials {
        Credentials { seat: c.seat, token: c.token }
    }
}

/// The outcome of an accepted choice.
pub struct Accepted {
    /// Its sequence number.
    pub seq: u64,
    /// What happened.
    pub events: Vec<pb::Event>,
    /// The state after it, for the submitting seat.
    pub state: pb::GameState,
}

/// Items of a server stream.
pub type StreamItem<T> = Result<T, tonic::Status>;

/// The games manager.
pub struct Manager {
    /// Where games are made durable.
    store: Arc<dyn GameStore>,
    /// Every hosted game by id.
    games: RwLock<HashMap<String, Arc<Slot>>>,
    /// Lobby changes for WatchLobby.
    lobby: broadcast::Sender<pb::LobbyUpdate>,
    /// The numbers.
    limits: Limits,
    /// Per-client counters.
    caps: Arc<ClientCaps>,
    /// Set to true when the server begins to shut down; streams end.
    shutdown: watch::Sender<bool>,
    /// The last creation stamp handed out: stamps strictly increase, so
    /// ListGames (ordered by stamp) lists games in the order they were made
    /// even when two land in the same millisecond.
    last_created_ms: std::sync::atomic::AtomicI64,
}

const LIVE_CAPACITY: usize = 256;
const STREAM_BUFFER: usize = 64;

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, crate::store::StoreError> + Send + 'static,
) -> Result<T, ServiceError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ServiceError::Internal(format!("storage task: {e}")))?
        .map_err(Into::into)
}

/// Completes once shutdown has begun.
async fn stopped(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|&v| v).await;
}

/// Replays `entries` (choices and undos) on a fresh game from `config`:
/// the game and its effective steps.
fn replay(config: &GameConfig, entries: &[EntryRecord]) -> Result<(Game, Vec<Step>), String> {
    let mut effective: Vec<&EntryRecord> = Vec::new();
    for e in entries {
        match e.kind {
            EntryKind::Choice => effective.push(e),
            EntryKind::Undo => {
                effective.pop().ok_or_else(|| format!("entry {} undoes nothing", e.seq))?;
            }
        }
    }
    let mut game = Game::new(config.clone()).map_err(|e| format!("config refused: {e}"))?;
    let mut steps = Vec::with_capacity(effective.len());
    for e in effective {
        let events = game
            .apply(e.seat, &e.option_id)
            .map_err(|err| format!("entry {} ('{}') refused: {err}", e.seq, e.option_id))?;
        steps.push(Step { seat: e.seat, undoable: undoable(&events) });
    }
    Ok((game, steps))
}

impl Manager {
    /// A manager over `store`, with every stored game reloaded by replaying
    /// its choices. Games that no longer replay are logged and left out.
    pub async fn load(store: Arc<dyn GameStore>, limits: Limits) -> Result<Manager, ServiceError> {
        let stored = {
            let store = Arc::clone(&store);
            blocking(move || store.load_all()).await?
        };
        let mut games = HashMap::new();
        let count = stored.len();
        let last_created_ms = stored.iter().map(|g| g.record.created_ms).max().unwrap_or(0);
        for StoredGame { record, entries } in stored {
            let id = record.id.clone();
            let game = serde_json::from_str::<GameConfig>(&record.config_json)
                .map_err(|e| format!("config JSON: {e}"))
                .and_then(|config| replay(&config, &entries));
            match game {
                Ok((game, steps)) => {
                    let data = GameData::new(record, game, entries, steps);
                    let (updates, _) = broadcast::channel(LIVE_CAPACITY);
                    games.insert(id.clone(), Arc::new(Slot { id, data: Mutex::new(data), updates }));
                }
                Err(e) => warn!(game = %id, error = %e, "stored game does not replay; not hosted"),
            }
        }
        info!(stored = count, hosted = games.len(), "games reloaded");
        let (lobby, _) = broadcast::channel(1024);
        let (shutdown, _) = watch::channel(false);
        Ok(Manager {
            store,
            games: RwLock::new(games),
            lobby,
            limits,
            caps: Arc::new(ClientCaps::default()),
            shutdown,
            last_created_ms: last_created_ms.into(),
        })
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Ends every stream (called when the server begins to shut down).
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// Number of hosted games.
    pub fn game_count(&self) -> usize {
        self.games.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn slot(&self, id: &str) -> Result<Arc<Slot>, ServiceError> {
        self.games
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
            .ok_or_else(|| ServiceError::NotFound(id.chars().take(80).collect()))
    }

    fn announce(&self, change: pb::LobbyChange, game: pb::GameSummary) {
        // No receiver is fine: nobody watches the lobby.
        let _ = self.lobby.send(pb::LobbyUpdate { change: change as i32, game: Some(game) });
    }

    /// Checks a seat's token (see `GameData::authenticate`) and announces
    /// an idle holder's return.
    fn auth(&self, d: &mut GameData, creds: &Credentials) -> Result<(Seat, Holder), ServiceError> {
        let (seat, holder, returned) = d.authenticate(creds)?;
        if returned {
            info!(game = %d.record.id, seat, "idle seat's holder is back; stand-in dismissed");
            self.announce(pb::LobbyChange::Seat, d.summary());
        }
        Ok((seat, holder))
    }

    /// Marks as idle every human seat the game has waited on for longer
    /// than its idle timeout (run periodically by the server).
    pub async fn mark_idle_seats(&self) {
        let slots: Vec<Arc<Slot>> = self.games.read().unwrap_or_else(|e| e.into_inner()).values().cloned().collect();
        let now = tokio::time::Instant::now();
        for slot in slots {
            let mut d = slot.data.lock().await;
            if d.record.idle_timeout_s == 0 || d.game.outcome().is_some() {
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

    /// Starts the periodic idle check; it ends at shutdown.
    pub fn spawn_idle_watch(self: &Arc<Self>) {
        let me = Arc::clone(self);
        let mut shutdown = self.shutdown.subscribe();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_millis(250));
            loop {
                tokio::select! {
                    _ = stopped(&mut shutdown) => return,
                    _ = tick.tick() => me.mark_idle_seats().await,
                }
            }
        });
    }

    /// The creation stamp for a new game: now, or one past the last stamp
    /// when the clock has not moved on (or went back).
    fn next_creation_stamp(&self) -> i64 {
        use std::sync::atomic::Ordering;
        let now = now_ms();
        let previous = self
            .last_created_ms
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |last| Some(now.max(last.saturating_add(1))))
            .unwrap_or_else(|last| last);
        now.max(previous.saturating_add(1))
    }

    /// Hosts a new game (a fresh one, or a fork with initial entries).
    async fn host(
        &self,
        client: Option<IpAddr>,
        config: GameConfig,
        seats: Vec<OpenTo>,
        idle_timeout_s: u32,
        entries: Vec<EntryRecord>,
        forked_from: Option<(String, u64)>,
    ) -> Result<pb::GameSummary, ServiceError> {
        if self.game_count() >= self.limits.max_games {
            return Err(ServiceError::ResourceExhausted(format!(
                "the server hosts its maximum of {} games",
                self.limits.max_games
            )));
        }
        let (game, steps) = replay(&config, &entries).map_err(ServiceError::InvalidArgument)?;
        self.caps.count_game(client, self.limits.max_games_per_client)?;
        let record = GameRecord {
            id: new_game_id(),
            config_json: serde_json::to_string(&config).map_err(|e| ServiceError::Internal(e.to_string()))?,
            created_ms: self.next_creation_stamp(),
            status: Status::Open,
            forked_from,
            idle_timeout_s,
            seats: seats
                .into_iter()
                .enumerate()
                .map(|(i, open_to)| crate::model::SeatRecord { seat: i as Seat, open_to, claim: None })
                .collect(),
        };
        let data = GameData::new(record, game, entries, steps);
        {
            let (store, record, entries) = (Arc::clone(&self.store), data.record.clone(), data.entries.clone());
            blocking(move || store.create_game(&record, &entries)).await?;
        }
        let summary = data.summary();
        let id = data.record.id.clone();
        let (updates, _) = broadcast::channel(LIVE_CAPACITY);
        self.games
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.clone(), Arc::new(Slot { id: id.clone(), data: Mutex::new(data), updates }));
        info!(game = %id, ships = ?config.ships, difficulty = config.difficulty.as_str(), seed = config.seed,
              forked_from = ?summary.forked_from, seq = summary.seq, "game created");
        self.announce(pb::LobbyChange::Created, summary.clone());
        Ok(summary)
    }

    /// CreateGame.
    pub async fn create_game(
        &self,
        client: Option<IpAddr>,
        req: &pb::CreateGameRequest,
    ) -> Result<pb::GameSummary, ServiceError> {
        let (config, seats) = wire::create_request(req, rand::random())?;
        self.host(client, config, seats, self.limits.idle_timeout_s, Vec::new(), None).await
    }

    /// ForkGame.
    pub async fn fork_game(
        &self,
        client: Option<IpAddr>,
        source: &str,
        at_seq: u64,
        seats: &[i32],
    ) -> Result<pb::GameSummary, ServiceError> {
        let slot = self.slot(source)?;
        let (config, entries, open, idle_timeout_s) = {
            let d = slot.data.lock().await;
            if at_seq > d.seq() {
                return Err(ServiceError::OutOfRange(format!(
                    "at_seq {at_seq} is beyond game {source}, which is at seq {}",
                    d.seq()
                )));
            }
            let open: Vec<OpenTo> = d.record.seats.iter().map(|s| s.open_to).collect();
            (d.game.config().clone(), d.entries[..at_seq as usize].to_vec(), open, d.record.idle_timeout_s)
        };
        let seats = if seats.is_empty() { open } else { wire::seats(seats, config.ships.len())? };
        let now = now_ms();
        let entries = entries.into_iter().map(|e| EntryRecord { at_ms: now, ..e }).collect();
        self.host(client, config, seats, idle_timeout_s, entries, Some((source.to_string(), at_seq))).await
    }

    /// ListGames, oldest first.
    pub async fn list_games(&self, status: Option<Status>, only_open_seats: bool) -> Vec<pb::GameSummary> {
        let slots: Vec<Arc<Slot>> = self.games.read().unwrap_or_else(|e| e.into_inner()).values().cloned().collect();
        let mut out = Vec::new();
        for slot in slots {
            let d = slot.data.lock().await;
            if status.is_some_and(|s| s != d.record.status) {
                continue;
            }
            let open = d
                .record
                .seats
                .iter()
                .zip(&d.presence)
                .any(|(s, p)| s.claim.is_none() || (p.idle && p.stand_in.is_none()));
            if only_open_seats && !open {
                continue;
            }
            out.push(d.summary());
        }
        out.sort_by(|a, b| (a.created_unix_ms, &a.game_id).cmp(&(b.created_unix_ms, &b.game_id)));
        out
    }

    /// ClaimSeat: returns the token and the game after the claim.
    pub async fn claim_seat(
        &self,
        game_id: &str,
        seat: u32,
        claimant: ClaimantKind,
        token: &str,
    ) -> Result<(String, pb::GameSummary), ServiceError> {
        let slot = self.slot(game_id)?;
        let mut d = slot.data.lock().await;
        if !token.is_empty() {
            let (seat, _) = self.auth(&mut d, &Credentials { seat, token: token.to_string() })?;
            info!(game = %game_id, seat, "seat reclaimed");
            return Ok((token.to_string(), d.summary()));
        }
        let n = d.record.seats.len();
        let i = usize::try_from(seat).ok().filter(|&s| s < n).ok_or_else(|| {
            ServiceError::InvalidArgument(format!("seat {seat} does not exist; this game has seats 0 to {}", n - 1))
        })?;
        let rec = &d.record.seats[i];
        if rec.claim.is_some() {
            let p = &d.presence[i];
            if p.idle && p.stand_in.is_none() && claimant == ClaimantKind::Ai {
                let token = new_token();
                d.presence[i].stand_in = Some(hash_token(&token));
                info!(game = %game_id, seat, "AI agent stands in for an idle seat");
                let summary = d.summary();
                self.announce(pb::LobbyChange::Seat, summary.clone());
                return Ok((token, summary));
            }
            return Err(ServiceError::FailedPrecondition(format!(
                "seat {seat} is already claimed; to take it back after a disconnect, send its token"
            )));
        }
        if !rec.open_to.admits(claimant) {
            return Err(ServiceError::PermissionDenied(format!(
                "seat {seat} is open to {} only, not to a claimant of kind {}",
                rec.open_to.as_str(),
                claimant.as_str()
            )));
        }
        let token = new_token();
        let mut new_seat = rec.clone();
        new_seat.claim = Some(Claim { token_hash: hash_token(&token), by: claimant });
        self.save_seat(&slot.id, &mut d, new_seat).await?;
        // The new holder's idle clock starts now, not when the game was made.
        d.presence[i] = Presence::now();
        info!(game = %game_id, seat, claimant = claimant.as_str(), "seat claimed");
        let summary = d.summary();
        self.announce(pb::LobbyChange::Seat, summary.clone());
        Ok((token, summary))
    }

    /// ReleaseSeat.
    pub async fn release_seat(&self, game_id: &str, creds: &Credentials) -> Result<pb::GameSummary, ServiceError> {
        let slot = self.slot(game_id)?;
        let mut d = slot.data.lock().await;
        let (seat, holder) = self.auth(&mut d, creds)?;
        if holder == Holder::StandIn {
            d.presence[usize::from(seat)].stand_in = None;
            info!(game = %game_id, seat, "stand-in left an idle seat");
            let summary = d.summary();
            self.announce(pb::LobbyChange::Seat, summary.clone());
            return Ok(summary);
        }
        let mut new_seat = d.record.seats[usize::from(seat)].clone();
        new_seat.claim = None;
        d.presence[usize::from(seat)] = Presence::now();
        self.save_seat(&slot.id, &mut d, new_seat).await?;
        info!(game = %game_id, seat, "seat released");
        let summary = d.summary();
        self.announce(pb::LobbyChange::Seat, summary.clone());
        Ok(summary)
    }

    /// Stores a seat change (and the status it implies), then applies it.
    async fn save_seat(
        &self,
        game_id: &str,
        d: &mut GameData,
        seat: crate::model::SeatRecord,
    ) -> Result<(), ServiceError> {
        let old = std::mem::replace(&mut d.record.seats[usize::from(seat.seat)], seat.clone());
        let status = d.derived_status();
        let changed = status != d.record.status;
        let (store, id) = (Arc::clone(&self.store), game_id.to_string());
        let res = blocking(move || {
            store.put_seat(&id, &seat)?;
            if changed {
                store.set_status(&id, status)?;
            }
            Ok(())
        })
        .await;
        match res {
            Ok(()) => {
                d.record.status = status;
                Ok(())
            }
            Err(e) => {
                let i = usize::from(old.seat);
                d.record.seats[i] = old;
                Err(e)
            }
        }
    }

    /// GetView.
    pub async fn get_view(
        &self,
        game_id: &str,
        creds: Option<&Credentials>,
    ) -> Result<(pb::GameState, pb::GameSummary), ServiceError> {
        let slot = self.slot(game_id)?;
        let mut d = slot.data.lock().await;
        let viewer = match creds {
            Some(c) => Viewer::Seat(self.auth(&mut d, c)?.0),
            None => Viewer::Spectator,
        };
        Ok((d.state(&slot.id, viewer), d.summary()))
    }

    /// SubmitChoice: durable before it returns.
    pub async fn submit(
        &self,
        game_id: &str,
        creds: &Credentials,
        expected_seq: Option<u64>,
        option_id: &str,
    ) -> Result<Accepted, ServiceError> {
        let slot = self.slot(game_id)?;
        let mut d = slot.data.lock().await;
        let refused = |e: ServiceError| {
            info!(game = %game_id, seat = creds.seat, option = %option_id.chars().take(80).collect::<String>(),
                  code = ?e.code(), why = %e, "choice refused");
            e
        };
        let (seat, _) = self.auth(&mut d, creds).map_err(refused)?;
        let Some(expected) = expected_seq else {
            return Err(refused(ServiceError::InvalidArgument(
                "expected_seq is required: send the seq of the state your choice answers".into(),
            )));
        };
        if d.game.outcome().is_some() {
            return Err(refused(ServiceError::Rule(xodus_engine::RuleError::GameOver)));
        }
        if expected != d.seq() {
            return Err(refused(ServiceError::Aborted(format!(
                "expected_seq {expected} is stale: the game is at seq {}; fetch the new state and decide again",
                d.seq()
            ))));
        }
        let mut next = (*d.game).clone();
        let events = next.apply(seat, option_id).map_err(|e| refused(e.into()))?;
        let entry = EntryRecord {
            seq: d.seq() + 1,
            kind: EntryKind::Choice,
            seat,
            option_id: option_id.to_string(),
            at_ms: now_ms(),
        };
        {
            let (store, id, entry) = (Arc::clone(&self.store), slot.id.clone(), entry.clone());
            blocking(move || store.append_entry(&id, &entry)).await.map_err(refused)?;
        }
        let next = Arc::new(next);
        d.game = Arc::clone(&next);
        d.entries.push(entry.clone());
        d.steps.push(Step { seat, undoable: undoable(&events) });
        d.moved();
        let seq = entry.seq;
        let undo = d.undo_seat();
        let live = Live { entry, events: events.clone(), game: Arc::clone(&next), undo_seat: undo };
        let _ = slot.updates.send(Arc::new(live));
        if let Some(outcome) = next.outcome() {
            d.record.status = Status::Finished;
            let (store, id) = (Arc::clone(&self.store), slot.id.clone());
            if let Err(e) = blocking(move || store.set_status(&id, Status::Finished)).await {
                // The status is derived again from the replay at the next start.
                warn!(game = %game_id, error = %e, "could not store the finished status");
            }
            info!(game = %game_id, won = outcome.won, cause = %outcome.cause, round = outcome.round, seq, "game ended");
            self.announce(pb::LobbyChange::Status, d.summary());
        }
        Ok(Accepted {
            seq,
            events: events.iter().map(convert::event).collect(),
            state: d.state(&slot.id, Viewer::Seat(seat)),
        })
    }

    /// Undo: takes back the seat's own last choice when nothing random or
    /// hidden happened in it; recorded as an entry, durable before it returns.
    pub async fn undo(
        &self,
        game_id: &str,
        creds: &Credentials,
        expected_seq: Option<u64>,
    ) -> Result<(u64, pb::GameState), ServiceError> {
        let slot = self.slot(game_id)?;
        let mut d = slot.data.lock().await;
        let refused = |e: ServiceError| {
            info!(game = %game_id, seat = creds.seat, code = ?e.code(), why = %e, "undo refused");
            e
        };
        let (seat, _) = self.auth(&mut d, creds).map_err(refused)?;
        let Some(expected) = expected_seq else {
            return Err(refused(ServiceError::InvalidArgument(
                "expected_seq is required: send the seq of the state you want to undo from".into(),
            )));
        };
        if d.game.outcome().is_some() {
            return Err(refused(ServiceError::Rule(xodus_engine::RuleError::GameOver)));
        }
        if expected != d.seq() {
            return Err(refused(ServiceError::Aborted(format!(
                "expected_seq {expected} is stale: the game is at seq {}; nothing was undone",
                d.seq()
            ))));
        }
        match d.steps.last() {
            None => return Err(refused(ServiceError::FailedPrecondition("there is no choice to undo".into()))),
            Some(s) if s.seat != seat => {
                return Err(refused(ServiceError::FailedPrecondition(format!(
                    "the last choice was made by seat {}, not by seat {seat}; only your own choices can be undone",
                    s.seat
                ))));
            }
            Some(s) if !s.undoable => {
                return Err(refused(ServiceError::FailedPrecondition(
                    "the last choice revealed something random or hidden (a roll, a draw, a reveal) or ended a turn \
                     or phase; it cannot be undone"
                        .into(),
                )));
            }
            Some(_) => {}
        }
        let entry =
            EntryRecord { seq: d.seq() + 1, kind: EntryKind::Undo, seat, option_id: "undo".into(), at_ms: now_ms() };
        let mut entries = d.entries.clone();
        entries.push(entry.clone());
        let (game, steps) = replay(d.game.config(), &entries).map_err(|e| refused(ServiceError::Internal(e)))?;
        {
            let (store, id, entry) = (Arc::clone(&self.store), slot.id.clone(), entry.clone());
            blocking(move || store.append_entry(&id, &entry)).await.map_err(refused)?;
        }
        let game = Arc::new(game);
        d.game = Arc::clone(&game);
        d.entries = entries;
        d.steps = steps;
        d.moved();
        let seq = entry.seq;
        info!(game = %game_id, seat, seq, "choice undone");
        let undo = d.undo_seat();
        let _ = slot.updates.send(Arc::new(Live { entry, events: Vec::new(), game, undo_seat: undo }));
        Ok((seq, d.state(&slot.id, Viewer::Seat(seat))))
    }

    /// GetHistory.
    pub async fn history(&self, game_id: &str) -> Result<(pb::GameSummary, Vec<pb::HistoryEntry>), ServiceError> {
        let slot = self.slot(game_id)?;
        let d = slot.data.lock().await;
        Ok((d.summary(), d.entries.iter().map(wire::entry).collect()))
    }

    /// StreamGame: a receiver of updates from `from_seq` on.
    pub async fn stream_game(
        &self,
        client: Option<IpAddr>,
        game_id: &str,
        from_seq: u64,
        creds: Option<&Credentials>,
    ) -> Result<mpsc::Receiver<StreamItem<pb::GameUpdate>>, ServiceError> {
        let slot = self.slot(game_id)?;
        let (viewer, config, entries, live) = {
            let mut d = slot.data.lock().await;
            let viewer = match creds {
                Some(c) => Viewer::Seat(self.auth(&mut d, c)?.0),
                None => Viewer::Spectator,
            };
            if from_seq > d.seq() {
                return Err(ServiceError::OutOfRange(format!(
                    "from_seq {from_seq} is beyond the game's seq {}",
                    d.seq()
                )));
            }
            // Subscribed under the lock: no update can slip between the
            // history copied here and the first live one.
            (viewer, d.game.config().clone(), d.entries.clone(), slot.updates.subscribe())
        };
        let guard = self.caps.open_stream(client, self.limits.max_streams_per_client)?;
        let (tx, rx) = mpsc::channel(STREAM_BUFFER);
        let shutdown = self.shutdown.subscribe();
        tokio::spawn(run_game_stream(
            GameStream { slot, viewer, config, tx, shutdown, _guard: guard },
            entries,
            from_seq,
            live,
        ));
        Ok(rx)
    }

    /// WatchLobby: a snapshot of every game, then changes.
    pub async fn watch_lobby(
        self: &Arc<Self>,
        client: Option<IpAddr>,
    ) -> Result<mpsc::Receiver<StreamItem<pb::LobbyUpdate>>, ServiceError> {
        let guard = self.caps.open_stream(client, self.limits.max_streams_per_client)?;
        let mut live = self.lobby.subscribe();
        let (tx, rx) = mpsc::channel(STREAM_BUFFER);
        let mut shutdown = self.shutdown.subscribe();
        let me = Arc::clone(self);
        tokio::spawn(async move {
            let _guard = guard;
            let snapshot = |games: Vec<pb::GameSummary>| {
                games
                    .into_iter()
                    .map(|g| pb::LobbyUpdate { change: pb::LobbyChange::Snapshot as i32, game: Some(g) })
                    .chain(std::iter::once(pb::LobbyUpdate { change: pb::LobbyChange::SnapshotEnd as i32, game: None }))
                    .collect::<Vec<_>>()
            };
            let mut pending = snapshot(me.list_games(None, false).await);
            loop {
                for u in pending.drain(..) {
                    if tx.send(Ok(u)).await.is_err() {
                        return; // the client left
                    }
                }
                tokio::select! {
                    _ = stopped(&mut shutdown) => return,
                    _ = tx.closed() => return, // the client left
                    r = live.recv() => match r {
                        Ok(u) => pending.push(u),
                        Err(broadcast::error::RecvError::Lagged(_)) => {
                            live = me.lobby.subscribe();
                            pending = snapshot(me.list_games(None, false).await);
                        }
                        Err(broadcast::error::RecvError::Closed) => return,
                    },
                }
            }
        });
        Ok(rx)
    }
}

/// What a game stream task holds.
struct GameStream {
    slot: Arc<Slot>,
    viewer: Viewer,
    config: GameConfig,
    tx: mpsc::Sender<StreamItem<pb::GameUpdate>>,
    shutdown: watch::Receiver<bool>,
    /// Gives the client's stream slot back when the task ends.
    _guard: StreamGuard,
}

impl GameStream {
    fn update(
        &self,
        entry: Option<&EntryRecord>,
        seq: u64,
        events: &[Event],
        game: &Game,
        undo: Option<Seat>,
    ) -> pb::GameUpdate {
        pb::GameUpdate {
            seq,
            snapshot: entry.is_none(),
            entry: entry.map(wire::entry),
            events: events.iter().map(convert::event).collect(),
            state: Some(state_for(&self.slot.id, seq, game, self.viewer, undo)),
        }
    }

    /// Replays `entries`, sending an update for each one after `from`
    /// (and a snapshot at `from` first when asked). Returns the last seq
    /// sent, or `None` when the client left.
    async fn replay_from(&self, entries: &[EntryRecord], from: u64, snapshot: bool) -> Option<u64> {
        let from = from.min(entries.len() as u64);
        let (mut game, mut steps) = match replay(&self.config, &entries[..from as usize]) {
            Ok(g) => g,
            Err(e) => {
                let _ = self.tx.send(Err(tonic::Status::internal(format!("history does not replay: {e}")))).await;
                return None;
            }
        };
        if snapshot {
            self.tx.send(Ok(self.update(None, from, &[], &game, undo_seat(&game, &steps)))).await.ok()?;
        }
        for (i, e) in entries.iter().enumerate().skip(from as usize) {
            let events = match e.kind {
                EntryKind::Choice => game.apply(e.seat, &e.option_id).map_err(|err| err.to_string()).inspect(|ev| {
                    steps.push(Step { seat: e.seat, undoable: undoable(ev) });
                }),
                EntryKind::Undo => replay(&self.config, &entries[..=i]).map(|(g, s)| {
                    (game, steps) = (g, s);
                    Vec::new()
                }),
            };
            let events = match events {
                Ok(ev) => ev,
                Err(err) => {
                    let _ = self.tx.send(Err(tonic::Status::internal(format!("history does not replay: {err}")))).await;
                    return None;
                }
            };
            self.tx.send(Ok(self.update(Some(e), e.seq, &events, &game, undo_seat(&game, &steps)))).await.ok()?;
        }
        Some(entries.len() as u64)
    }
}

async fn run_game_stream(
    mut s: GameStream,
    entries: Vec<EntryRecord>,
    from_seq: u64,
    mut live: broadcast::Receiver<Arc<Live>>,
) {
    let Some(mut last) = s.replay_from(&entries, from_seq, true).await else { return };
    drop(entries);
    loop {
        let msg = tokio::select! {
            _ = stopped(&mut s.shutdown) => return,
            _ = s.tx.closed() => return,
            r = live.recv() => r,
        };
        match msg {
            Ok(u) if u.entry.seq <= last => continue,
            Ok(u) if u.entry.seq == last + 1 => {
                let update = s.update(Some(&u.entry), u.entry.seq, &u.events, &u.game, u.undo_seat);
                if s.tx.send(Ok(update)).await.is_err() {
                    return; // the client left
                }
                last = u.entry.seq;
            }
            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {
                // Fell behind: catch up from the history.
                let entries = {
                    let d = s.slot.data.lock().await;
                    live = s.slot.updates.subscribe();
                    d.entries.clone()
                };
                match s.replay_from(&entries, last, false).await {
                    Some(l) => last = l,
                    None => return,
                }
            }
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    fn create_req(seed: u64) -> pb::CreateGameRequest {
        pb::CreateGameRequest {
            kind: pb::GameKind::Xodus as i32,
            seats: vec![pb::SeatOpenTo::Human as i32, pb::SeatOpenTo::Ai as i32, pb::SeatOpenTo::Any as i32],
            setup: Some(pb::create_game_request::Setup::Xodus(pb::XodusSetup {
                ship_count: 3,
                seed: Some(seed),
                ..Default::default()
            })),
        }
    }

    async fn manager(store: Arc<dyn GameStore>) -> Manager {
        Manager::load(store, Limits::default()).await.expect("load")
    }

    /// Claims every seat; returns their tokens.
    async fn claim_all(m: &Manager, id: &str) -> Vec<String> {
        let mut tokens = Vec::new();
        for (seat, who) in [(0, ClaimantKind::Human), (1, ClaimantKind::Ai), (2, ClaimantKind::Human)] {
            tokens.push(m.claim_seat(id, seat, who, "").await.expect("claim").0);
        }
        tokens
    }

    /// Plays the first offered option `n` times.
    async fn play(m: &Manager, id: &str, tokens: &[String], n: usize) {
        for _ in 0..n {
            let (state, _) = m.get_view(id, None).await.expect("view");
            let d = state.decision.expect("decision");
            let o = &d.options[0];
            let seat = o.seats[0];
            let creds = Credentials { seat, token: tokens[seat as usize].clone() };
            m.submit(id, &creds, Some(state.seq), &o.id).await.expect("submit");
        }
    }

    #[tokio::test]
    async fn games_made_in_the_same_millisecond_list_in_the_order_they_were_made() {
        let m = manager(Arc::new(MemoryStore::default())).await;
        let mut made = Vec::new();
        for seed in 0..20 {
            made.push(m.create_game(None, &create_req(seed)).await.expect("create").game_id);
        }
        let listed: Vec<String> = m.list_games(None, false).await.into_iter().map(|g| g.game_id).collect();
        assert_eq!(listed, made);
    }

    async fn idle_seats(m: &Manager, id: &str) -> usize {
        let games = m.list_games(None, false).await;
        games.into_iter().find(|g| g.game_id == id).expect("listed").seats.iter().filter(|s| s.idle).count()
    }

    #[tokio::test]
    async fn a_seat_claimed_late_starts_its_idle_clock_at_the_claim() {
        let limits = Limits { idle_timeout_s: 1, ..Limits::default() };
        let m = Manager::load(Arc::new(MemoryStore::default()), limits).await.expect("load");
        let id = m.create_game(None, &create_req(3)).await.expect("create").game_id;
        // The game waits for its crew longer than the idle timeout.
        tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
        claim_all(&m, &id).await;
        m.mark_idle_seats().await;
        assert_eq!(idle_seats(&m, &id).await, 0, "nobody has been silent for a second since claiming");
        tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
        m.mark_idle_seats().await;
        assert!(idle_seats(&m, &id).await > 0, "the silent human deciders go idle");
    }

    #[tokio::test]
    async fn claims_follow_the_seat_rules() {
        let m = manager(Arc::new(MemoryStore::default())).await;
        let g = m.create_game(None, &create_req(1)).await.expect("create");
        assert_eq!(g.status, pb::GameStatus::Open as i32);
        let id = g.game_id;
        let err = m.claim_seat(&id, 1, ClaimantKind::Human, "").await.expect_err("AI seat");
        assert_eq!(err.code(), tonic::Code::PermissionDenied);
        let (t0, _) = m.claim_seat(&id, 0, ClaimantKind::Human, "").await.expect("claim");
        assert_eq!(t0.len(), 32);
        let err = m.claim_seat(&id, 0, ClaimantKind::Human, "").await.expect_err("taken");
        assert_eq!(err.code(), tonic::Code::FailedPrecondition);
        let (again, _) = m.claim_seat(&id, 0, ClaimantKind::Human, &t0).await.expect("reclaim");
        assert_eq!(again, t0);
        let err = m.claim_seat(&id, 0, ClaimantKind::Human, "nope").await.expect_err("bad token");
        assert_eq!(err.code(), tonic::Code::Unauthenticated);
        m.claim_seat(&id, 1, ClaimantKind::Ai, "").await.expect("ai");
        let (_, g) = m.claim_seat(&id, 2, ClaimantKind::Ai, "").await.expect("any");
        assert_eq!(g.status, pb::GameStatus::Playing as i32);
        let g = m.release_seat(&id, &Credentials { seat: 0, token: t0.clone() }).await.expect("release");
        assert_eq!(g.status, pb::GameStatus::Open as i32);
        let err = m.get_view(&id, Some(&Credentials { seat: 0, token: t0 })).await.expect_err("released token");
        assert_eq!(err.code(), tonic::Code::Unauthenticated);
        assert_eq!(
            m.claim_seat(&id, 9, ClaimantKind::Human, "").await.expect_err("no seat").code(),
            tonic::Code::InvalidArgument
        );
        assert_eq!(
            m.claim_seat("g-none", 0, ClaimantKind::Human, "").await.expect_err("no game").code(),
            tonic::Code::NotFound
        );
    }

    #[tokio::test]
    async fn refusals_change_nothing_and_choices_survive_a_reload() {
        let store: Arc<dyn GameStore> = Arc::new(MemoryStore::default());
        let m = manager(Arc::clone(&store)).await;
        let id = m.create_game(None, &create_req(2)).await.expect("create").game_id;
        let tokens = claim_all(&m, &id).await;
        play(&m, &id, &tokens, 3).await;
        let (before, _) = m.get_view(&id, None).await.expect("view");
        let d = before.decision.clone().expect("decision");
        let seat = d.options[0].seats[0];
        let ok = Credentials { seat, token: tokens[seat as usize].clone() };
        let stale = m.submit(&id, &ok, Some(before.seq - 1), &d.options[0].id).await.err().map(|e| e.code());
        assert_eq!(stale, Some(tonic::Code::Aborted));
        let missing = m.submit(&id, &ok, None, &d.options[0].id).await.err().map(|e| e.code());
        assert_eq!(missing, Some(tonic::Code::InvalidArgument));
        let bad = Credentials { seat, token: "0".repeat(32) };
        let wrong = m.submit(&id, &bad, Some(before.seq), &d.options[0].id).await.err().map(|e| e.code());
        assert_eq!(wrong, Some(tonic::Code::Unauthenticated));
        let illegal = m.submit(&id, &ok, Some(before.seq), "no_such_option").await.err().map(|e| e.code());
        assert_eq!(illegal, Some(tonic::Code::FailedPrecondition));
        let (after, _) = m.get_view(&id, None).await.expect("view");
        assert_eq!(after.state_hash, before.state_hash);
        assert_eq!(after.seq, before.seq);

        let m2 = manager(store).await;
        let (reloaded, g) = m2.get_view(&id, None).await.expect("view");
        assert_eq!(reloaded.state_hash, before.state_hash);
        assert_eq!(g.seats.iter().filter(|s| s.claimed).count(), 3);
    }

    #[tokio::test]
    async fn undo_takes_back_own_safe_choices_and_replays() {
        let store: Arc<dyn GameStore> = Arc::new(MemoryStore::default());
        let m = manager(Arc::clone(&store)).await;
        let id = m.create_game(None, &create_req(4)).await.expect("create").game_id;
        let tokens = claim_all(&m, &id).await;
        let creds = |seat: u32| Credentials { seat, token: tokens[seat as usize].clone() };
        // Play the first option until a choice may be undone.
        let (before_hash, seat, seq) = loop {
            let (state, _) = m.get_view(&id, None).await.expect("view");
            let o = state.decision.expect("decision").options.remove(0);
            let seat = o.seats[0];
            let a = m.submit(&id, &creds(seat), Some(state.seq), &o.id).await.expect("submit");
            if a.state.can_undo {
                break (state.state_hash, seat, a.seq);
            }
            assert!(a.seq < 80, "no undoable choice in 80 choices");
        };
        let other = (seat + 1) % 3;
        let err = m.undo(&id, &creds(other), Some(seq)).await.err().map(|e| e.code());
        assert_eq!(err, Some(tonic::Code::FailedPrecondition), "not your choice");
        let err = m.undo(&id, &creds(seat), Some(seq - 1)).await.err().map(|e| e.code());
        assert_eq!(err, Some(tonic::Code::Aborted));
        let mut rx = m.stream_game(None, &id, seq, None).await.expect("stream");
        rx.recv().await.expect("snapshot").expect("ok");
        let (undo_seq, state) = m.undo(&id, &creds(seat), Some(seq)).await.expect("undo");
        assert_eq!(undo_seq, seq + 1);
        assert_eq!(state.state_hash, before_hash, "back to the state before the choice");
        let live = rx.recv().await.expect("live").expect("ok");
        assert_eq!(live.entry.expect("entry").kind, pb::EntryKind::Undo as i32);
        assert_eq!(live.state.expect("state").state_hash, before_hash);
        let (_, history) = m.history(&id).await.expect("history");
        assert_eq!(history.last().map(|e| e.option_id.as_str()), Some("undo"));
        // Replays agree: a stream from the start, a fork, a reload.
        let mut rx = m.stream_game(None, &id, 0, None).await.expect("stream");
        let mut last = None;
        for _ in 0..=undo_seq {
            last = rx.recv().await.expect("update").expect("ok").state;
        }
        assert_eq!(last.expect("state").state_hash, before_hash);
        let fork = m.fork_game(None, &id, undo_seq, &[]).await.expect("fork");
        assert_eq!(m.get_view(&fork.game_id, None).await.expect("view").0.state_hash, before_hash);
        let m2 = manager(store).await;
        assert_eq!(m2.get_view(&id, None).await.expect("view").0.state_hash, before_hash);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_concurrent_submits_of_the_same_seq_act_once() {
        let m = Arc::new(manager(Arc::new(crate::store::SqliteStore::open_in_memory().expect("db"))).await);
        let id = m.create_game(None, &create_req(5)).await.expect("create").game_id;
        let tokens = claim_all(&m, &id).await;
        let (state, _) = m.get_view(&id, None).await.expect("view");
        let o = state.decision.expect("decision").options.remove(0);
        let creds = Credentials { seat: o.seats[0], token: tokens[o.seats[0] as usize].clone() };
        let click = || {
            let (m, id, creds, o) = (Arc::clone(&m), id.clone(), creds.clone(), o.id.clone());
            tokio::spawn(async move { m.submit(&id, &creds, Some(0), &o).await.map(|a| a.seq) })
        };
        let (a, b) = (click(), click());
        let results = [a.await.expect("join"), b.await.expect("join")];
        assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1, "exactly one click acts");
        let refused = results.iter().find_map(|r| r.as_ref().err()).expect("one refused");
        assert_eq!(refused.code(), tonic::Code::Aborted);
        assert_eq!(m.history(&id).await.expect("history").1.len(), 1);
    }

    #[tokio::test]
    async fn streams_replay_then_follow_and_forks_match() {
        let m = manager(Arc::new(MemoryStore::default())).await;
        let id = m.create_game(None, &create_req(3)).await.expect("create").game_id;
        let tokens = claim_all(&m, &id).await;
        play(&m, &id, &tokens, 4).await;
        let mut rx = m.stream_game(None, &id, 1, None).await.expect("stream");
        let first = rx.recv().await.expect("snapshot").expect("ok");
        assert!(first.snapshot);
        assert_eq!(first.seq, 1);
        for seq in 2..=4 {
            let u = rx.recv().await.expect("replayed").expect("ok");
            assert_eq!(u.seq, seq);
            assert_eq!(u.entry.expect("entry").seq, seq);
        }
        play(&m, &id, &tokens, 1).await;
        let live = rx.recv().await.expect("live").expect("ok");
        assert_eq!(live.seq, 5);
        let (now, _) = m.get_view(&id, None).await.expect("view");
        assert_eq!(live.state.expect("state").state_hash, now.state_hash);

        let fork = m.fork_game(None, &id, 5, &[]).await.expect("fork");
        assert_eq!(fork.seq, 5);
        let (forked, _) = m.get_view(&fork.game_id, None).await.expect("view");
        assert_eq!(forked.state_hash, now.state_hash);
        assert_eq!(m.fork_game(None, &id, 99, &[]).await.expect_err("range").code(), tonic::Code::OutOfRange);
        assert_eq!(m.stream_game(None, &id, 99, None).await.err().map(|e| e.code()), Some(tonic::Code::OutOfRange));

        m.begin_shutdown();
        assert!(rx.recv().await.is_none(), "streams end at shutdown");
    }
}
