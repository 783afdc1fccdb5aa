//! Plays every seat the process holds in one game, over one stream.
//!
//! The game is followed by one `StreamGame` (with the credentials of one
//! held seat and the seats' changes), on the pool's channel for that game,
//! whatever the number of seats held. A reader task keeps only the newest
//! state in a `watch` channel, so a slow thinker never answers a state it
//! has been overtaken on. When the decision is one of the held seats', the
//! lowest such seat acts (a decision shared with teammates is first left to
//! them for a while, `shared`); a seat other than the streaming one fetches
//! its own view with `GetView` first (its options; in a game with private
//! hands its own secrets), thinks on it in a think slot (`think`) and
//! submits with `expected_seq`. ABORTED means someone moved first: wait for
//! the next state. RESOURCE_EXHAUSTED is retried after a jittered backoff
//! (`pace`), never by reconnecting. When the stream breaks (server restart,
//! network cut) it is opened again from the last sequence number seen,
//! after a jittered backoff that starts again only once a state came
//! through (so a server that answers slowly after a restart is given more
//! and more room), and through one of the pool's few opening slots; the
//! seat tokens survive restarts, so nothing is claimed twice. Given several
//! server addresses, a failure that says the node looks gone is reported
//! to the pool (`conn`), which moves the table's channel to another node
//! before the stream is opened again there, from the same sequence number
//! (any node serves any game). A failure is
//! logged at info the first time and at debug while it repeats, and at
//! warn only once a table failed `WARN_AFTER` times in a row. A seat the process has not spoken for in a while is heard from
//! with a `GetView`, so the server's seat lease never takes it back.
//!
//! The stream also carries the table talk: every line it brings is heard
//! by each held seat's player before its next decision, and what a player
//! has to say after a pick (its intent, a reason) is said once the pick is
//! accepted.

// The API's request messages grow fields (proto3 adds, never removes):
// every request here spells `..Default::default()` so a new field
// compiles as its default.
#![allow(clippy::needless_update)]

use super::backoff::Backoff;
use super::claims::Claims;
use super::conn::{Client, Dialed, Pool};
use super::status::{SeatEnd, seat_lost, transient};
use super::think::Thinkers;
use super::{AgentConfig, AgentError};
use crate::games;
use crate::players::{PlayerSpec, Remark, SeatPlayer};
use crate::rng::{hash_str, mix};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabletop::pb;
use tokio::sync::{mpsc, watch};
use tonic::{Code, Status};

/// A held seat not on the table's follow is heard from at least this
/// often (the server's default lease of an AI's seat is 6 s).
const HEARTBEAT: Duration = Duration::from_secs(2);

/// Failures in a row after which a table's reconnection is a warning (a
/// server restart costs one or two).
const WARN_AFTER: u32 = 5;

/// Logs a table's failure: info the first time, debug while it repeats,
/// warn once it has repeated `WARN_AFTER` times.
macro_rules! failure {
    ($attempt:expr, $($field:tt)*) => {
        match $attempt {
            0 => tracing::info!($($field)*),
            n if n >= WARN_AFTER => tracing::warn!(failures = n + 1, $($field)*),
            _ => tracing::debug!($($field)*),
        }
    };
}

/// What every table of the process shares.
#[derive(Clone)]
pub struct Shared {
    /// How the agent plays.
    pub cfg: Arc<AgentConfig>,
    /// The connections.
    pub pool: Arc<Pool>,
    /// The think slots.
    pub thinkers: Thinkers,
    /// The seats claimed, released at stop.
    pub claims: Claims,
    /// The games followed, many on each connection's one stream.
    pub follows: Arc<super::follows::Follows>,
}

/// One held seat.
struct Held {
    token: String,
    /// Claimed by this table (given back at stop), not given on the
    /// command line.
    claimed: bool,
    /// The seat's player, built at its first decision (it needs the
    /// game's type); out while it thinks.
    player: Option<Box<dyn SeatPlayer>>,
    heard: Instant,
    /// Lines of the table's talk its player has heard (an index into
    /// `Table::talk`).
    talk_heard: usize,
    /// What its player had to say after a pick that was not accepted: said
    /// after the next one.
    unsaid: Option<Remark>,
}

/// How a table's play ended, for each seat it held.
#[derive(Debug)]
pub struct TableEnd {
    /// Each seat and how its play ended.
    pub seats: Vec<(u32, SeatEnd)>,
}

/// What a table tells of a seat whose play ended before the table's.
type SeatEnded = Box<dyn Fn(u32, &SeatEnd) + Send + Sync>;

/// A seat to play: its number and, if already claimed, its token.
pub type SeatToPlay = (u32, Option<String>);

/// Plays `first` and every seat sent on `more` in `game_id`, until the
/// game ends or no seat is held any more. `on_seat_end` is told at once of
/// each seat whose play ended before the table's (lost, or its claim
/// refused), so that the seat can be handed to the table again.
pub async fn play_table(
    sh: Shared,
    game_id: String,
    first: SeatToPlay,
    mut more: mpsc::UnboundedReceiver<SeatToPlay>,
    on_seat_end: impl Fn(u32, &SeatEnd) + Send + Sync + 'static,
) -> Result<TableEnd, AgentError> {
    let mut t = Table {
        sh,
        game_id,
        held: BTreeMap::new(),
        pending: vec![first],
        on_seat_end: Box::new(on_seat_end),
        last_seq: 0,
        failures: 0,
        winners: Vec::new(),
        dialed: None,
        talk: Arc::default(),
        streamed: Default::default(),
        widen: false,
    };
    let mut backoff = Backoff::default();
    let end = loop {
        while let Ok(s) = more.try_recv() {
            t.pending.push(s);
        }
        let (mut client, dialed) = t.sh.pool.dial(&t.game_id).await;
        t.dialed = Some(dialed);
        t.claim_pending(&mut client).await;
        let Some((&stream_seat, held)) = t.held.iter().next() else {
            if t.pending.is_empty() {
                break None;
            }
            tokio::time::sleep(t.sh.pool.pace.jittered(backoff.delay())).await;
            continue;
        };
        let creds = pb::SeatCredentials { seat: stream_seat, token: held.token.clone() };
        // Every other seat held here rides on the same follow: streamed,
        // each keeps its lease, and hears the lines said to it.
        let more_credentials: Vec<pb::SeatCredentials> = t
            .held
            .iter()
            .filter(|(s, _)| **s != stream_seat)
            .map(|(s, h)| pb::SeatCredentials { seat: *s, token: h.token.clone() })
            .collect();
        t.streamed = t.held.keys().copied().collect();
        let req = pb::StreamGameRequest {
            game_id: t.game_id.clone(),
            from_seq: t.last_seq,
            credentials: Some(creds),
            seat_updates: true,
            talk: true,
            from_talk_seq: t.talk.lock().map(|l| l.last().map_or(0, |l| l.talk_seq)).unwrap_or(0),
            more_credentials,
            ..Default::default()
        };
        let slot = t.sh.pool.opening_slot().await;
        t.sh.pool.pace.wait().await;
        let stream = match t.sh.follows.open(&mut client, dialed, req).await {
            Ok(s) => s,
            Err(s) if seat_lost(&s) => {
                // Which of the seats on the follow it was: each one asks.
                t.find_lost(&mut client, stream_seat, &s).await;
                continue;
            }
            Err(s) => {
                drop(slot);
                super::follows::say_if_capped(&s);
                t.node_failed(&s).await;
                let d = if s.code() == Code::ResourceExhausted {
                    t.sh.pool.pace.exhausted(backoff.attempt())
                } else {
                    t.sh.pool.pace.jittered(backoff.delay())
                };
                failure!(backoff.attempt(), game = %t.game_id, seat = stream_seat, status = %s.message(),
                         delay_ms = d.as_millis() as u64, "stream refused; retrying");
                backoff.bump();
                tokio::time::sleep(d).await;
                continue;
            }
        };
        tracing::debug!(game = %t.game_id, seat = stream_seat, seats = t.held.len(), from_seq = t.last_seq, "following the game");
        t.failures = backoff.attempt();
        let (end, got_state) = t.follow(&mut client, stream, slot, stream_seat, &mut more).await?;
        if got_state {
            backoff.reset();
        }
        match end {
            Some(end) => break Some(end),
            // A seat joined the table: follow again at once, with it.
            None if std::mem::take(&mut t.widen) => {}
            None => {
                backoff.bump();
                tokio::time::sleep(t.sh.pool.pace.jittered(backoff.delay())).await;
            }
        }
    };
    let mut seats = Vec::new();
    for (seat, h) in std::mem::take(&mut t.held) {
        if h.claimed {
            t.sh.claims.forget(&t.game_id, seat);
        }
        let e = match end.clone() {
            // A ranked game's win is each seat's own.
            Some(SeatEnd::Finished { won, cause }) => {
                SeatEnd::Finished { won: won || t.winners.contains(&seat), cause }
            }
            Some(other) => other,
            None => SeatEnd::Lost("the table ended".into()),
        };
        seats.push((seat, e));
    }
    Ok(TableEnd { seats })
}

/// One paced call, retried with jittered backoff while the server says
/// RESOURCE_EXHAUSTED (a bounded number of times).
async fn call<T, F, Fut>(pool: Arc<Pool>, f: F, client: &Client) -> Result<T, Status>
where
    F: Fn(Client) -> Fut,
    Fut: std::future::Future<Output = Result<T, Status>>,
{
    let mut attempt = 0;
    loop {
        pool.pace.wait().await;
        match f(client.clone()).await {
            Err(s) if s.code() == Code::ResourceExhausted && attempt < 12 => {
                let d = pool.pace.exhausted(attempt);
                tracing::debug!(delay_ms = d.as_millis() as u64, "over the server's rate; backing off");
                tokio::time::sleep(d).await;
                attempt += 1;
            }
            other => return other,
        }
    }
}

/// A held seat's own view, by a paced GetView with its credentials.
async fn seat_view(
    pool: Arc<Pool>,
    game_id: String,
    creds: &pb::SeatCredentials,
    client: &Client,
) -> Result<tonic::Response<pb::GetViewResponse>, Status> {
    let req = pb::GetViewRequest { game_id, credentials: Some(creds.clone()), ..Default::default() };
    call(
        pool,
        |mut c| {
            let req = req.clone();
            async move { c.get_view(req).await }
        },
        client,
    )
    .await
}

struct Table {
    sh: Shared,
    game_id: String,
    held: BTreeMap<u32, Held>,
    pending: Vec<SeatToPlay>,
    /// Told of each seat whose play ends before the table's.
    on_seat_end: SeatEnded,
    last_seq: u64,
    /// Reconnections in a row without a state (for the log's level).
    failures: u32,
    /// The winners of a ranked game, once it is over.
    winners: Vec<u32>,
    /// The pool's connection the table uses now, for reporting a node
    /// that looks gone (`Pool::failed`).
    dialed: Option<Dialed>,
    /// The table talk heard so far (shared with the stream's reader).
    talk: Arc<Mutex<Vec<pb::TalkLine>>>,
    /// The seats on the open follow (each keeps its lease by it).
    streamed: std::collections::BTreeSet<u32>,
    /// A seat was taken up since the follow opened: open it again at once,
    /// with that seat on it.
    widen: bool,
}

/// Why following the stream stopped.
enum Stop {
    /// Open the stream again (it broke, or the streaming seat was lost).
    Reopen,
}

impl Table {
    /// A seat that is not ours any more.
    fn lose(&mut self, seat: u32, why: &str) {
        if let Some(h) = self.held.remove(&seat) {
            if h.claimed {
                self.sh.claims.forget(&self.game_id, seat);
            }
            tracing::info!(game = %self.game_id, seat, %why, "seat not ours");
            (self.on_seat_end)(seat, &SeatEnd::Lost(why.to_string()));
        }
    }

    /// Claims (or takes up with their tokens) the seats waiting to be.
    async fn claim_pending(&mut self, client: &mut Client) {
        let pending = std::mem::take(&mut self.pending);
        for (seat, token) in pending {
            if self.held.contains_key(&seat) {
                continue;
            }
            let (token, claimed) = match token {
                Some(t) => (t, false),
                None => {
                    let req = pb::ClaimSeatRequest {
                        game_id: self.game_id.clone(),
                        seat,
                        claimant: pb::Claimant::Ai as i32,
                        token: String::new(),
                        ..Default::default()
                    };
                    match call(
                        self.sh.pool.clone(),
                        |mut c| {
                            let req = req.clone();
                            async move { c.claim_seat(req).await }
                        },
                        client,
                    )
                    .await
                    {
                        Ok(r) => {
                            let t = r.into_inner().token;
                            tracing::info!(game = %self.game_id, seat, "claimed seat");
                            self.sh.claims.hold(&self.game_id, seat, &t);
                            (t, true)
                        }
                        Err(s) if transient(&s) => {
                            self.pending.push((seat, None));
                            continue;
                        }
                        Err(s) => {
                            (self.on_seat_end)(seat, &SeatEnd::Lost(format!("claim refused: {}", s.message())));
                            continue;
                        }
                    }
                }
            };
            self.held.insert(
                seat,
                Held { token, claimed, player: None, heard: Instant::now(), talk_heard: 0, unsaid: None },
            );
        }
    }

    /// A fresh player for `seat` in a game of `game_type`.
    fn player_for(&self, seat: u32, game_type: &str) -> Box<dyn SeatPlayer> {
        let cfg = &self.sh.cfg;
        let seed = mix(&[cfg.seed, hash_str(&self.game_id), u64::from(seat)]);
        let spec = PlayerSpec { policy: &cfg.policy, seed, agent_seed: cfg.seed, threads: cfg.threads };
        games::player_for(game_type, spec)
    }

    fn creds(&self, seat: u32) -> Option<pb::SeatCredentials> {
        self.held.get(&seat).map(|h| pb::SeatCredentials { seat, token: h.token.clone() })
    }

    /// Follows the open stream and plays; `Some` when the game ended or no
    /// seat is held any more, `None` to open the stream again; and whether
    /// a state came through. The opening slot is given back at the first
    /// message (or when the stream ends).
    async fn follow(
        &mut self,
        client: &mut Client,
        mut stream: super::follows::Follow,
        slot: Option<tokio::sync::OwnedSemaphorePermit>,
        stream_seat: u32,
        more: &mut mpsc::UnboundedReceiver<SeatToPlay>,
    ) -> Result<(Option<SeatEnd>, bool), AgentError> {
        let (tx, mut rx) = watch::channel::<Option<pb::GameState>>(None);
        let seats_info: Arc<Mutex<Vec<pb::SeatInfo>>> = Arc::new(Mutex::new(Vec::new()));
        let got_state = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let reader = {
            let talk = self.talk.clone();
            let seats_info = seats_info.clone();
            let got_state = got_state.clone();
            tokio::spawn(async move {
                let mut slot = slot;
                loop {
                    let message = stream.message().await;
                    // The first message (or the end) frees the opening slot.
                    drop(slot.take());
                    match message {
                        Ok(Some(u)) => {
                            if u.state.is_some() {
                                got_state.store(true, std::sync::atomic::Ordering::Relaxed);
                            }
                            // The talk first: a state's players hear what
                            // was said up to it before they think on it.
                            if !u.talk.is_empty()
                                && let Ok(mut heard) = talk.lock()
                            {
                                let last = heard.last().map_or(0, |l| l.talk_seq);
                                heard.extend(u.talk.into_iter().filter(|l| l.talk_seq > last));
                            }
                            if let Some(g) = u.game
                                && let Ok(mut s) = seats_info.lock()
                            {
                                *s = g.seats;
                            }

                            if let Some(st) = u.state
                                && tx.send(Some(st)).is_err()
                            {
                                return None;
                            }
                        }
                        Ok(None) => return None,
                        Err(s) => return Some(s),
                    }
                }
            })
        };
        let r = self.play_on(client, &mut rx, &seats_info, stream_seat, more).await;
        reader.abort();
        let got_state = got_state.load(std::sync::atomic::Ordering::Relaxed);
        let failures = if got_state { 0 } else { self.failures };
        match reader.await {
            Ok(Some(s)) if seat_lost(&s) => self.lose(stream_seat, s.message()),
            Ok(Some(s)) => {
                failure!(failures, game = %self.game_id, status = %s.message(), "stream broke; reconnecting");
                self.node_failed(&s).await;
            }
            _ => {}
        }
        let end = match r {
            Ok(end) => Some(end),
            Err(Stop::Reopen) if self.held.is_empty() && self.pending.is_empty() => {
                Some(SeatEnd::Lost("no seat of this game is ours any more".into()))
            }
            Err(Stop::Reopen) => None,
        };
        Ok((end, got_state))
    }

    async fn play_on(
        &mut self,
        client: &mut Client,
        rx: &mut watch::Receiver<Option<pb::GameState>>,
        seats_info: &Arc<Mutex<Vec<pb::SeatInfo>>>,
        stream_seat: u32,
        more: &mut mpsc::UnboundedReceiver<SeatToPlay>,
    ) -> Result<SeatEnd, Stop> {
        let mut current: Option<pb::GameState> = None;
        let mut heartbeat = tokio::time::interval(HEARTBEAT / 2);
        let mut more_open = true;
        loop {
            if current.is_none() {
                tokio::select! {
                    changed = rx.changed() => {
                        if changed.is_err() {
                            return Err(Stop::Reopen);
                        }
                        current = rx.borrow_and_update().clone();
                    }
                    seat = more.recv(), if more_open => match seat {
                        Some(s) => {
                            self.pending.push(s);
                            self.claim_pending(client).await;
                            if self.held.keys().any(|s| !self.streamed.contains(s)) {
                                self.widen = true;
                                return Err(Stop::Reopen);
                            }
                            let latest = rx.borrow().clone();
                            current = latest;
                        }
                        None => more_open = false,
                    },
                    _ = heartbeat.tick() => {
                        self.heartbeat(client, stream_seat).await;
                        // A claim that failed for a passing reason (the
                        // game moving between nodes) is tried again, and a
                        // seat taken up joins the follow at once.
                        if !self.pending.is_empty() {
                            self.claim_pending(client).await;
                            if self.held.keys().any(|s| !self.streamed.contains(s)) {
                                self.widen = true;
                                return Err(Stop::Reopen);
                            }
                        }
                        continue;
                    }
                }
            }
            let Some(st) = current.take() else { continue };
            self.last_seq = self.last_seq.max(st.seq);
            self.failures = 0;
            if let Some(o) = &st.outcome {
                self.winners.clone_from(&o.winners);
                return Ok(SeatEnd::Finished { won: o.won, cause: o.cause.clone() });
            }
            let Some(d) = &st.decision else { continue };
            let Some(seat) = d.deciders.iter().copied().filter(|s| self.held.contains_key(s)).min() else { continue };
            if d.deciders.len() > 1 {
                let infos = seats_info.lock().map(|s| s.clone()).unwrap_or_default();
                let think = Duration::from_millis(self.sh.cfg.budget.think_ms.unwrap_or(0));
                let wait = super::shared::wait_before_acting(seat, &d.deciders, &infos, think, self.sh.cfg.courtesy);
                if let Some(wait) = wait {
                    tracing::debug!(game = %self.game_id, seat, seq = st.seq, wait_ms = wait.as_millis() as u64,
                                    "a shared decision: giving teammates the first move");
                    match tokio::time::timeout(wait, rx.changed()).await {
                        Ok(Ok(())) => {
                            current = rx.borrow_and_update().clone();
                            continue;
                        }
                        Ok(Err(_)) => return Err(Stop::Reopen),
                        Err(_) => {}
                    }
                }
            }
            let Some(creds) = self.creds(seat) else { continue };
            // The seat's own view, unless this state is already that
            // seat's (the stream's seat, or a reply to the seat's choice).
            let st = if st.viewer_seat == Some(seat) {
                st
            } else {
                match seat_view(self.sh.pool.clone(), self.game_id.clone(), &creds, client).await {
                    Ok(v) => {
                        self.heard(seat);
                        match v.into_inner().state {
                            Some(fresh) if fresh.seq == st.seq => fresh,
                            // The game moved on meanwhile: look at the newest.
                            Some(fresh) => {
                                current = Some(fresh);
                                continue;
                            }
                            None => continue,
                        }
                    }
                    Err(s) if seat_lost(&s) => {
                        self.lose(seat, s.message());
                        current = Some(st);
                        continue;
                    }
                    Err(s) => {
                        self.node_failed(&s).await;
                        return Err(Stop::Reopen);
                    }
                }
            };
            let Some((id, remark)) = self.think(seat, &st).await else { continue };
            // A remark not said yet (its pick was overtaken or refused)
            // waits for the seat's next accepted pick.
            let remark = remark.or_else(|| self.held.get_mut(&seat).and_then(|h| h.unsaid.take()));
            if rx.has_changed().unwrap_or(false) {
                self.keep_unsaid(seat, remark);
                continue; // overtaken while thinking: think again on the newest state
            }
            let req = pb::SubmitChoiceRequest {
                game_id: self.game_id.clone(),
                credentials: Some(creds.clone()),
                expected_seq: Some(st.seq),
                choice: Some(pb::submit_choice_request::Choice::OptionId(id.clone())),
                ..Default::default()
            };
            let answer = call(
                self.sh.pool.clone(),
                |mut c| {
                    let req = req.clone();
                    async move { c.submit_choice(req).await }
                },
                client,
            )
            .await;
            match answer {
                Ok(r) => {
                    self.heard(seat);
                    let r = r.into_inner();
                    tracing::debug!(game = %self.game_id, seat, seq = r.seq, option = %id, "choice accepted");
                    if let Some(remark) = remark {
                        self.say(client, &creds, remark).await;
                    }
                    if !rx.has_changed().unwrap_or(false) {
                        current = r.state;
                    }
                }
                Err(s) if s.code() == Code::Aborted => {
                    tracing::debug!(game = %self.game_id, seat, "stale choice; waiting for the newer state");
                    self.keep_unsaid(seat, remark);
                }
                Err(s) if seat_lost(&s) => {
                    self.lose(seat, s.message());
                    if seat == stream_seat {
                        return Err(Stop::Reopen);
                    }
                    current = Some(st);
                }
                Err(s) if s.code() == Code::ResourceExhausted => {
                    // Still over the rate after the retries: look again later.
                    self.keep_unsaid(seat, remark);
                    current = Some(st);
                }
                Err(s) if transient(&s) => {
                    self.keep_unsaid(seat, remark);
                    failure!(self.failures, game = %self.game_id, seat, status = %s.message(), "submit failed; reconnecting");
                    self.node_failed(&s).await;
                    return Err(Stop::Reopen);
                }
                Err(s) => {
                    tracing::warn!(game = %self.game_id, seat, option = %id, status = %s.message(), "choice refused; refetching");
                    self.keep_unsaid(seat, remark);
                    match seat_view(self.sh.pool.clone(), self.game_id.clone(), &creds, client).await {
                        Ok(v) => {
                            let fresh = v.into_inner().state;
                            if fresh.as_ref().is_some_and(|f| f.seq != st.seq || f.outcome.is_some()) {
                                current = fresh;
                            }
                        }
                        Err(s) if seat_lost(&s) => {
                            self.lose(seat, s.message());
                            if seat == stream_seat {
                                return Err(Stop::Reopen);
                            }
                        }
                        Err(_) => return Err(Stop::Reopen),
                    }
                }
            }
        }
    }

    /// Tells the pool a call on this table's connection failed (with
    /// several addresses, a node that looks gone moves the channel).
    /// (`&mut self`: a `Table` is `Send`, not `Sync`.)
    async fn node_failed(&mut self, s: &Status) {
        if let Some(d) = self.dialed {
            self.sh.pool.failed(d, s).await;
        }
    }

    fn heard(&mut self, seat: u32) {
        if let Some(h) = self.held.get_mut(&seat) {
            h.heard = Instant::now();
        }
    }

    /// Every held seat not on the follow that was not heard from for a
    /// while speaks once (a view with its token).
    async fn heartbeat(&mut self, client: &mut Client, stream_seat: u32) {
        let quiet: Vec<u32> = self
            .held
            .iter()
            .filter(|(s, h)| **s != stream_seat && !self.streamed.contains(s) && h.heard.elapsed() >= HEARTBEAT)
            .map(|(s, _)| *s)
            .collect();
        for seat in quiet {
            let Some(creds) = self.creds(seat) else { continue };
            match seat_view(self.sh.pool.clone(), self.game_id.clone(), &creds, client).await {
                Ok(_) => self.heard(seat),
                Err(s) if seat_lost(&s) => self.lose(seat, s.message()),
                Err(_) => {}
            }
        }
    }

    /// A follow was refused because a seat on it is not ours: each held
    /// seat looks at its own view, and those refused are lost (the
    /// streaming seat, when none is).
    async fn find_lost(&mut self, client: &mut Client, stream_seat: u32, refusal: &Status) {
        let seats: Vec<u32> = self.held.keys().copied().collect();
        let mut lost = false;
        for seat in seats {
            let Some(creds) = self.creds(seat) else { continue };
            if let Err(s) = seat_view(self.sh.pool.clone(), self.game_id.clone(), &creds, client).await
                && seat_lost(&s)
            {
                self.lose(seat, s.message());
                lost = true;
            }
        }
        if !lost {
            self.lose(stream_seat, refusal.message());
        }
    }

    /// Keeps a remark whose pick was not accepted, for the seat's next.
    fn keep_unsaid(&mut self, seat: u32, remark: Option<Remark>) {
        if let (Some(h), Some(r)) = (self.held.get_mut(&seat), remark) {
            h.unsaid = Some(r);
        }
    }

    /// Says a player's remark as `creds`' seat; a refusal (the talk
    /// allowance, a broken connection) only loses the line.
    async fn say(&mut self, client: &mut Client, creds: &pb::SeatCredentials, remark: Remark) {
        let req = pb::SayRequest {
            game_id: self.game_id.clone(),
            credentials: Some(creds.clone()),
            audience: if remark.to_seat.is_some() { pb::TalkAudience::Seat } else { pb::TalkAudience::Table } as i32,
            to_seat: remark.to_seat,
            text: remark.text,
            signal: remark.signal,
            intent: remark.intent,
            ..Default::default()
        };
        self.sh.pool.pace.wait().await;
        if let Err(s) = client.say(req).await {
            tracing::debug!(game = %self.game_id, seat = creds.seat, status = %s.message(), "a remark was not said");
        }
    }

    /// The seat's pick on `st`, thought in a think slot (the time it took
    /// there is logged as `think_ms`, for `bench/agent-latency.sh`), and
    /// what the player has to say once it is accepted.
    async fn think(&mut self, seat: u32, st: &pb::GameState) -> Option<(String, Option<Remark>)> {
        /// Logs a policy's thinking time, from the think slot's start.
        fn thought(game: &str, seat: u32, start: Instant) {
            let think_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
            tracing::debug!(game, seat, think_ms, "thought");
        }
        let d = st.decision.as_ref()?;
        let seat8 = u8::try_from(seat).ok()?;
        let seed = mix(&[self.sh.cfg.seed, hash_str(&self.game_id), u64::from(seat), st.seq]);
        let mut player = match self.held.get_mut(&seat)?.player.take() {
            Some(p) => p,
            None => self.player_for(seat, &st.game_type),
        };
        // The talk the seat has not heard yet (the follow carries the
        // lines said to any seat held here: each hears its own).
        let lines: Vec<pb::TalkLine> = {
            let talk = self.talk.lock().map(|t| t.clone()).unwrap_or_default();
            let held = self.held.get_mut(&seat)?;
            let new = talk.get(held.talk_heard..).map(<[pb::TalkLine]>::to_vec).unwrap_or_default();
            held.talk_heard = talk.len();
            new.into_iter()
                .filter(|l| l.audience != pb::TalkAudience::Seat as i32 || l.to_seat == Some(seat) || l.speaker == seat)
                .collect()
        };
        for line in &lines {
            player.hear(seat8, line);
        }
        let (budget, state, game) = (self.sh.cfg.budget.clone(), st.clone(), self.game_id.clone());
        let done = self
            .sh
            .thinkers
            .think(move || {
                let start = Instant::now();
                let picked = player.choose(&state, seat8, &budget, seed);
                thought(&game, seat, start);
                let remark = player.remark();
                (player, picked, remark)
            })
            .await;
        match done {
            Ok((player, picked, remark)) => {
                if let Some(h) = self.held.get_mut(&seat) {
                    h.player = Some(player);
                }
                match picked {
                    Ok(Some(id)) => Some((id, remark)),
                    // The policy found nothing to pick: any legal option.
                    Ok(None) => crate::players::pick(d, seat, seed).map(|id| (id, None)),
                    Err(e) => {
                        tracing::warn!(game = %self.game_id, seq = st.seq, error = %e, "unreadable typed state");
                        None
                    }
                }
            }
            // The player is lost with its task: a fresh one takes over at
            // the next decision.
            Err(e) => {
                tracing::warn!(game = %self.game_id, seat, error = %e, "policy task failed; a fresh policy takes over");
                None
            }
        }
    }
}
