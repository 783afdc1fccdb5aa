//! Streams: StreamGame replays past updates from the history (the engine is
//! deterministic, so a replayed choice yields the very events it yielded
//! the first time), then follows the live channel; a subscriber that falls
//! behind catches up from the history again. A game stream ends after the
//! update that ends the game, when the game is abandoned or deleted, and
//! when the server shuts down. A stream that follows the table talk sends
//! each line the caller hears after the update of the seq it was said at
//! (a delayed spectator's as late). WatchLobby sends a snapshot of the
//! live games, then every change.

use super::replays::{Cursor, id_shown, viewer_at};
use super::spectators::{Grants, Policy, Who, watch_only};
use super::{Live, Manager, Slot, state_for, turned_on};
use crate::error::ServiceError;
use crate::game::{HostedGame, Seat, Viewer};
use crate::limits::StreamGuard;
use crate::model::{EntryRecord, TalkRecord};
use crate::replay::{Recipe, undo_seat};
use std::net::IpAddr;
use std::sync::Arc;
use tabletop::pb;
use tokio::sync::{broadcast, mpsc, watch};
use tracing::Instrument;

/// Items of a server stream.
pub type StreamItem<T> = Result<T, tonic::Status>;

const STREAM_BUFFER: usize = 64;

/// Whether a stream goes on after an update.
#[derive(PartialEq, Eq)]
enum Next {
    /// More may come.
    More,
    /// The game is over, or the client left: the stream ends.
    Stop,
}

/// What StreamGame asks for beyond the game, the seq, the seat and the
/// seats.
#[derive(Clone, Debug, Default)]
pub struct StreamOptions {
    /// A seat's view token (GrantView), instead of credentials.
    pub view_token: String,
    /// A finished game streamed from this seat's view.
    pub as_seat: Option<u32>,
    /// Also follow the table talk.
    pub talk: bool,
    /// With `talk`: the last talk_seq the caller heard.
    pub from_talk_seq: u64,
    /// Other seats the caller holds (with credentials set): streamed too,
    /// and heard in the talk.
    pub more_credentials: Vec<super::Credentials>,
    /// Opened by FollowGames: counted against the follow cap, not the
    /// stream cap.
    pub follow: bool,
}

/// A stream's following of the table talk: who listens, the lines heard
/// but not sent yet (each waits for the update of its seq), the last
/// talk_seq taken, and the live lines.
struct TalkFollow {
    /// The seats that listen (the streaming seat's, then the other seats
    /// its holder streams); none for a spectator or a granted watcher, who
    /// hear only what is said to the whole table.
    listeners: Vec<Seat>,
    /// Lines to send once their seq's update is sent.
    pending: std::sync::Mutex<std::collections::VecDeque<Arc<TalkRecord>>>,
    /// The last talk_seq queued or sent.
    last: std::sync::atomic::AtomicU64,
}

/// What the talk channel brought.
enum Heard {
    /// A new line.
    Line(Arc<TalkRecord>),
    /// Lines were missed: read them from the game.
    Lagged,
}

/// The next line said at the table; never, for a stream that does not
/// follow the talk.
async fn next_line(rx: &mut Option<broadcast::Receiver<Arc<TalkRecord>>>) -> Heard {
    let Some(r) = rx else { return std::future::pending().await };
    match r.recv().await {
        Ok(line) => Heard::Line(line),
        Err(broadcast::error::RecvError::Lagged(_)) => Heard::Lagged,
        Err(broadcast::error::RecvError::Closed) => {
            *rx = None;
            std::future::pending().await
        }
    }
}

/// A granted watcher's stream: its grant is checked before every update,
/// and again whenever a grant ends or a seat changes hands.
struct Watch {
    grants: Arc<Grants>,
    token_hash: String,
    seat: Seat,
    /// Changes when some grant ends or is replaced.
    ends: watch::Receiver<u64>,
    /// Changes when a seat of the game changes (a release ends a grant).
    seats: watch::Receiver<Option<Arc<pb::GameSummary>>>,
}

/// Completes when the grant of a granted stream may have ended; never for
/// other streams.
async fn grant_may_have_ended(watch: &mut Option<Watch>) {
    let Some(w) = watch else { return std::future::pending().await };
    tokio::select! {
        r = w.ends.changed() => if r.is_err() { std::future::pending::<()>().await },
        r = w.seats.changed() => if r.is_err() { std::future::pending::<()>().await },
    }
}

impl Manager {
    /// The opening of WatchLobby: one SNAPSHOT per live game, oldest first,
    /// then SNAPSHOT_END.
    async fn lobby_snapshot(&self) -> Vec<pb::WatchLobbyResponse> {
        let live = self.index.read().unwrap_or_else(|e| e.into_inner()).all(|b| !b.status.is_over());
        let games = self.summaries(live).await;
        games
            .into_iter()
            .map(|g| pb::WatchLobbyResponse { change: pb::LobbyChange::Snapshot as i32, game: Some(g) })
            .chain(std::iter::once(pb::WatchLobbyResponse { change: pb::LobbyChange::SnapshotEnd as i32, game: None }))
            .collect()
    }
}

/// What a game stream task holds.
struct GameStream {
    slot: Arc<Slot>,
    viewer: Viewer,
    recipe: Recipe,
    tx: mpsc::Sender<StreamItem<pb::StreamGameResponse>>,
    shutdown: watch::Receiver<bool>,
    /// Turns true when the game is abandoned or deleted.
    closed: watch::Receiver<bool>,
    /// The outcome to show when the game was abandoned before the stream.
    abandoned: Option<pb::Outcome>,
    /// The seats, when the client follows them (`seat_updates`).
    seats: Option<SeatFollow>,
    /// The game had ended when the stream began (or, for a delayed
    /// stream, has ended since): its replayed entries show every option id
    /// (a finished game's choices are public).
    ended: bool,
    /// The game's seq when the stream opened, its clocks then and the
    /// forfeited seats: the snapshot of that seq carries them.
    clocks_now: (u64, Vec<pb::SeatClock>, Vec<Seat>),
    /// Choices the stream stays behind the live game (a delayed
    /// spectator's), 0 for none.
    delay: u64,
    /// A granted watcher's grant, checked before every update.
    watch: Option<Watch>,
    /// The first seq whose state is this game's own (a resampled fork's
    /// earlier states are its source's: shown as a spectator sees them).
    own_from: u64,
    /// The table talk, when the client follows it.
    talk: Option<TalkFollow>,
    /// The live lines, when the client follows the talk.
    talk_rx: Option<broadcast::Receiver<Arc<TalkRecord>>>,
    /// Holds the seat's lease while the seat's holder streams.
    _holding: Vec<super::HolderStream>,
    /// Gives the client's stream slot back when the task ends.
    _guard: StreamGuard,
}

/// A stream's view of the seats: the summary for its opening snapshot,
/// then the game's summary after each change to a seat.
struct SeatFollow {
    opening: pb::GameSummary,
    changes: watch::Receiver<Option<Arc<pb::GameSummary>>>,
}

/// The game's summary after the next change to a seat; never, for a
/// stream that does not follow the seats or whose game left memory.
async fn next_seat_change(seats: &mut Option<SeatFollow>) -> Option<Arc<pb::GameSummary>> {
    let Some(follow) = seats else { return std::future::pending().await };
    if follow.changes.changed().await.is_err() {
        *seats = None;
        return std::future::pending().await;
    }
    follow.changes.borrow_and_update().clone()
}

impl GameStream {
    /// Sends one update; `Stop` when the game is over or the client left.
    async fn send(
        &self,
        entry: Option<&EntryRecord>,
        seq: u64,
        events: &[pb::Event],
        game: &dyn HostedGame,
        undo: Option<Seat>,
        last: bool,
    ) -> Next {
        let mut state = state_for(&self.slot.id, seq, game, viewer_at(self.viewer, seq, self.own_from), undo);
        if self.watched(&mut state, game).await == Next::Stop {
            return Next::Stop;
        }
        if last && state.outcome.is_none() {
            state.outcome.clone_from(&self.abandoned);
        }
        if seq == self.clocks_now.0 {
            state.clocks.clone_from(&self.clocks_now.1);
            if let Some(o) = state.outcome.take() {
                state.outcome = Some(crate::clock::with_forfeits(o, &self.clocks_now.2));
            }
        }
        let over = state.outcome.is_some();
        let update = pb::StreamGameResponse {
            seq,
            snapshot: entry.is_none(),
            entry: entry.map(|e| {
                crate::wire::entry(e, id_shown(game, over || self.ended, Some(self.viewer), e, self.own_from))
            }),
            events: events.to_vec(),
            state: Some(state),
            game: entry.is_none().then(|| self.seats.as_ref().map(|s| s.opening.clone())).flatten(),
            talk: self.take_talk(seq),
        };
        if self.tx.send(Ok(update)).await.is_err() || over { Next::Stop } else { Next::More }
    }

    /// The lines waiting whose seq is `upto` or before, taken out.
    fn take_talk(&self, upto: u64) -> Vec<pb::TalkLine> {
        let Some(t) = &self.talk else { return Vec::new() };
        let mut pending = t.pending.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = Vec::new();
        while pending.front().is_some_and(|l| l.game_seq <= upto) {
            if let Some(l) = pending.pop_front() {
                out.push(super::talk::wire_line(&l));
            }
        }
        out
    }

    /// Sends the lines waiting whose seq is `upto` or before, in one
    /// message at `seq` (the last state sent).
    async fn flush_talk(&self, upto: u64, seq: u64) -> Next {
        let lines = self.take_talk(upto);
        if lines.is_empty() {
            return Next::More;
        }
        let msg = pb::StreamGameResponse { seq, talk: lines, ..Default::default() };
        if self.tx.send(Ok(msg)).await.is_err() { Next::Stop } else { Next::More }
    }

    /// Queues a line said live if the listener hears it (and it is new),
    /// or, after lines were missed, every line heard since the last one
    /// queued.
    async fn hear(&self, heard: Heard) {
        let Some(t) = &self.talk else { return };
        let d = self.slot.data.lock().await;
        let last = t.last.load(std::sync::atomic::Ordering::SeqCst);
        let (lines, now) = match heard {
            Heard::Line(line) if line.talk_seq > last => {
                let seq = line.talk_seq;
                (if d.talk.hears(&t.listeners, &line) { vec![line] } else { Vec::new() }, seq)
            }
            Heard::Line(_) => return,
            Heard::Lagged => (d.talk.heard(&t.listeners, last, u64::MAX), d.talk.lines.len() as u64),
        };
        t.last.store(now, std::sync::atomic::Ordering::SeqCst);
        drop(d);
        t.pending.lock().unwrap_or_else(|e| e.into_inner()).extend(lines);
    }

    /// Sends one live update, from the state rendered once for its seq.
    async fn send_live(&self, live: &Live) -> Next {
        let mut state = live.rendered.state(self.viewer);
        state.clocks.clone_from(&live.clocks);
        if let Some(o) = state.outcome.take() {
            state.outcome = Some(crate::clock::with_forfeits(o, &live.forfeited));
        }
        if self.watched(&mut state, live.rendered.game()).await == Next::Stop {
            return Next::Stop;
        }
        let over = state.outcome.is_some();
        let shown = id_shown(live.rendered.game(), over, Some(self.viewer), &live.entry, self.own_from);
        let update = pb::StreamGameResponse {
            seq: live.entry.seq,
            snapshot: false,
            entry: Some(crate::wire::entry(&live.entry, shown)),
            events: live.events.clone(),
            state: Some(state),
            game: None,
            talk: self.take_talk(live.entry.seq),
        };
        if self.tx.send(Ok(update)).await.is_err() || over { Next::Stop } else { Next::More }
    }

    /// For a granted watcher: its grant still holds (else the stream ends
    /// with UNAUTHENTICATED), and the state loses what it may not use.
    async fn watched(&self, state: &mut pb::GameState, game: &dyn HostedGame) -> Next {
        if self.watch.is_none() {
            return Next::More;
        }
        if self.grant_holds().await == Next::Stop {
            return Next::Stop;
        }
        watch_only(state, game);
        Next::More
    }

    /// `Stop` (after telling the client) when a granted stream's grant no
    /// longer holds.
    async fn grant_holds(&self) -> Next {
        let Some(w) = &self.watch else { return Next::More };
        let holds = {
            let d = self.slot.data.lock().await;
            !d.evicted && w.grants.seat_of(&self.slot.id, &w.token_hash, &d) == Some(w.seat)
        };
        if holds {
            return Next::More;
        }
        let why = "the view token's grant was revoked or replaced, or its seat released";
        let _ = self.tx.send(Err(tonic::Status::unauthenticated(why))).await;
        Next::Stop
    }

    /// The game closed under the stream after seq `seq`: when another node
    /// took it over, the client hears UNAVAILABLE and reopens the stream
    /// from that seq (on any node); otherwise the stream just ends.
    async fn closed_under(&self, seq: u64) {
        if self.slot.moved.load(std::sync::atomic::Ordering::SeqCst) {
            let why = format!(
                "game {} moved to another node; reopen the stream with from_seq {} (on any node)",
                self.slot.id, seq
            );
            let _ = self.tx.send(Err(tonic::Status::unavailable(why))).await;
        }
    }

    /// The server is shutting down after seq `seq`: the client hears
    /// UNAVAILABLE and reopens the stream from that seq (on another node,
    /// or once this one is back).
    async fn shutting_down(&self, seq: u64) {
        let why = format!("the server is shutting down; reopen the stream with from_seq {seq}");
        let _ = self.tx.send(Err(tonic::Status::unavailable(why))).await;
    }

    async fn fail(&self, why: String) {
        let _ = self.tx.send(Err(tonic::Status::internal(format!("history does not replay: {why}")))).await;
    }

    /// Replays `entries`, sending an update for each one after `from`
    /// (and a snapshot at `from` first when asked). Returns the last seq
    /// sent, or `None` when the stream is done.
    async fn replay_from(&self, entries: &[EntryRecord], from: u64, snapshot: bool) -> Option<u64> {
        let from = from.min(entries.len() as u64);
        let (mut game, mut steps) = match self.recipe.replay(&entries[..from as usize]) {
            Ok(g) => g,
            Err(e) => {
                self.fail(e).await;
                return None;
            }
        };
        let end = entries.len() as u64;
        if snapshot
            && self.send(None, from, &[], game.as_ref(), undo_seat(game.as_ref(), steps.last()), from == end).await
                == Next::Stop
        {
            return None;
        }
        for i in from as usize..entries.len() {
            let events = match self.recipe.step(&mut game, &mut steps, entries, i) {
                Ok(ev) => ev,
                Err(e) => {
                    self.fail(e).await;
                    return None;
                }
            };
            let e = &entries[i];
            let last = e.seq == end;
            if self.send(Some(e), e.seq, &events, game.as_ref(), undo_seat(game.as_ref(), steps.last()), last).await
                == Next::Stop
            {
                return None;
            }
        }
        if self.abandoned.is_some() {
            return None;
        }
        Some(end)
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
        // Biased: a change to the seats made before a choice goes out
        // before that choice's update.
        let msg = tokio::select! {
            biased;
            _ = turned_on(&mut s.shutdown) => return s.shutting_down(last).await,
            _ = turned_on(&mut s.closed) => return s.closed_under(last).await,
            _ = s.tx.closed() => return,
            () = grant_may_have_ended(&mut s.watch) => {
                if s.grant_holds().await == Next::Stop {
                    return;
                }
                continue;
            }
            Some(game) = next_seat_change(&mut s.seats) => {
                let seats = pb::StreamGameResponse { seq: last, game: Some((*game).clone()), ..Default::default() };
                if s.tx.send(Ok(seats)).await.is_err() {
                    return;
                }
                continue;
            }
            heard = next_line(&mut s.talk_rx) => {
                if matches!(heard, Heard::Lagged) {
                    s.talk_rx = Some(s.slot.talk.subscribe());
                }
                s.hear(heard).await;
                if s.flush_talk(last, last).await == Next::Stop {
                    return;
                }
                continue;
            }
            r = live.recv() => r,
        };
        match msg {
            Ok(u) if u.entry.seq <= last => continue,
            Ok(u) if u.entry.seq == last + 1 => {
                if s.send_live(&u).await == Next::Stop {
                    return;
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

/// A delayed spectator's stream: it replays the history up to
/// `delay` choices behind the live game, and steps forward as the game
/// moves, on a cursor of its own; once the game is over (finished or
/// abandoned) the delay ends and the rest follows.
async fn run_delayed_stream(
    mut s: GameStream,
    mut entries: Vec<EntryRecord>,
    from_seq: u64,
    mut live: broadcast::Receiver<Arc<Live>>,
) {
    let mut cursor = match Cursor::at(&s.recipe, &entries, from_seq) {
        Ok(c) => c,
        Err(e) => return s.fail(e).await,
    };
    if s.send(None, cursor.seq, &[], cursor.game.as_ref(), cursor.undo(), false).await == Next::Stop {
        return;
    }
    loop {
        let len = entries.len() as u64;
        let horizon = if s.ended { len } else { len.saturating_sub(s.delay) };
        while cursor.seq < horizon {
            let events = match cursor.step(&s.recipe, &entries) {
                Ok(ev) => ev,
                Err(e) => return s.fail(e).await,
            };
            let e = &entries[(cursor.seq - 1) as usize];
            let last = s.ended && cursor.seq == len;
            if s.send(Some(e), cursor.seq, &events, cursor.game.as_ref(), cursor.undo(), last).await == Next::Stop {
                return;
            }
        }
        if s.ended {
            return;
        }
        let msg = tokio::select! {
            biased;
            _ = turned_on(&mut s.shutdown) => return s.shutting_down(cursor.seq).await,
            _ = turned_on(&mut s.closed) => {
                // Abandoned (its delay ends), deleted or moved away.
                let d = s.slot.data.lock().await;
                if d.evicted || d.record.status != crate::model::Status::Abandoned {
                    drop(d);
                    return s.closed_under(cursor.seq).await;
                }
                entries = d.entries.clone();
                s.abandoned = Some(d.abandoned_outcome());
                s.ended = true;
                continue;
            }
            _ = s.tx.closed() => return,
            Some(game) = next_seat_change(&mut s.seats) => {
                let seats = pb::StreamGameResponse { seq: cursor.seq, game: Some((*game).clone()), ..Default::default() };
                if s.tx.send(Ok(seats)).await.is_err() {
                    return;
                }
                continue;
            }
            heard = next_line(&mut s.talk_rx) => {
                if matches!(heard, Heard::Lagged) {
                    s.talk_rx = Some(s.slot.talk.subscribe());
                }
                s.hear(heard).await;
                if s.flush_talk(cursor.seq, cursor.seq).await == Next::Stop {
                    return;
                }
                continue;
            }
            r = live.recv() => r,
        };
        match msg {
            Ok(u) if u.entry.seq <= len => {}
            Ok(u) if u.entry.seq == len + 1 => {
                entries.push(u.entry.clone());
                s.ended = u.rendered.game().outcome().is_some();
            }
            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {
                // Fell behind: the entries from the game itself.
                let d = s.slot.data.lock().await;
                live = s.slot.updates.subscribe();
                entries = d.entries.clone();
                s.ended = d.is_over();
                if d.record.status == crate::model::Status::Abandoned {
                    s.abandoned = Some(d.abandoned_outcome());
                }
            }
            Err(broadcast::error::RecvError::Closed) => return,
        }
    }
}

impl super::api::Lobby<'_> {
    /// WatchLobby: a snapshot of every live game, then changes.
    pub async fn watch_lobby(
        &self,
        client: Option<IpAddr>,
    ) -> Result<mpsc::Receiver<StreamItem<pb::WatchLobbyResponse>>, ServiceError> {
        let guard = self.caps.open_stream(client, self.limits.max_streams_per_client)?;
        let mut live = self.lobby.subscribe();
        let (tx, rx) = mpsc::channel(STREAM_BUFFER);
        let mut shutdown = self.shutdown.subscribe();
        let me = Arc::clone(self.m);
        tokio::spawn(async move {
            let _guard = guard;
            let mut pending = me.lobby_snapshot().await;
            loop {
                for u in pending.drain(..) {
                    if tx.send(Ok(u)).await.is_err() {
                        return; // the client left
                    }
                }
                tokio::select! {
                    _ = turned_on(&mut shutdown) => {
                        let _ = tx.send(Err(tonic::Status::unavailable("the server is shutting down; watch the lobby again"))).await;
                        return;
                    }
                    _ = tx.closed() => return, // the client left
                    r = live.recv() => match r {
                        Ok(u) => pending.push(u),
                        Err(broadcast::error::RecvError::Lagged(_)) => {
                            live = me.lobby.subscribe();
                            pending = me.lobby_snapshot().await;
                        }
                        Err(broadcast::error::RecvError::Closed) => return,
                    },
                }
            }
        });
        Ok(rx)
    }
}

impl super::api::Streams<'_> {
    /// StreamGame: a receiver of updates from `from_seq` on.
    #[cfg(test)]
    pub async fn stream_game(
        &self,
        client: Option<IpAddr>,
        game_id: &str,
        from_seq: u64,
        creds: Option<&super::Credentials>,
        seat_updates: bool,
    ) -> Result<mpsc::Receiver<StreamItem<pb::StreamGameResponse>>, ServiceError> {
        self.stream_game_as(client, game_id, from_seq, creds, seat_updates, StreamOptions::default()).await
    }

    /// StreamGame for any caller: a seat, a granted watcher, a spectator
    /// (held `spectator_delay` choices behind a live delayed game), or
    /// anyone replaying a finished game from a seat's view.
    pub async fn stream_game_as(
        &self,
        client: Option<IpAddr>,
        game_id: &str,
        from_seq: u64,
        creds: Option<&super::Credentials>,
        seat_updates: bool,
        options: StreamOptions,
    ) -> Result<mpsc::Receiver<StreamItem<pb::StreamGameResponse>>, ServiceError> {
        let (slot, d) = self.game(game_id).await?;
        let (viewer, recipe, entries, live, abandoned, seats, ended, holding, delay, watch, own_from, clocks_now, talk) = {
            let mut d = d;
            let who = self.who(&mut d, creds, &options.view_token)?;
            if matches!(who, Who::Granted(_)) && options.as_seat.is_some() {
                return Err(ServiceError::BadRequest("a view token shows its seat's view: leave as_seat unset".into()));
            }
            let viewer = d.replay_viewer(who, options.as_seat)?;
            // The holder's open stream keeps its seats' leases.
            let mut holding: Vec<super::HolderStream> = match who {
                Who::Seat(s, true) => super::HolderStream::open(&slot, s).into_iter().collect(),
                _ => Vec::new(),
            };
            let mut listeners: Vec<Seat> = match who {
                Who::Seat(s, _) => vec![s],
                _ => Vec::new(),
            };
            if !options.more_credentials.is_empty() && listeners.is_empty() {
                return Err(ServiceError::BadRequest(
                    "more_credentials names other seats you hold: set credentials too".into(),
                ));
            }
            if options.more_credentials.len() >= d.record.seats.len() {
                return Err(ServiceError::BadRequest(format!(
                    "more_credentials has {} seats; this game has {} seats in all",
                    options.more_credentials.len(),
                    d.record.seats.len()
                )));
            }
            for more in &options.more_credentials {
                let (seat, holder) = match self.viewer_and_holder(&mut d, Some(more))? {
                    (Viewer::Seat(s), holder) => (s, holder),
                    (Viewer::Spectator, _) => continue,
                };
                if listeners.contains(&seat) {
                    return Err(ServiceError::BadRequest(format!("seat {seat} is named twice in the credentials")));
                }
                listeners.push(seat);
                if holder {
                    holding.extend(super::HolderStream::open(&slot, seat));
                }
            }
            if from_seq > d.seq() {
                return Err(ServiceError::BeyondHistory(format!(
                    "from_seq {from_seq} is beyond the game's seq {}",
                    d.seq()
                )));
            }
            d.check_visible(viewer, from_seq, "from_seq")?;
            // A spectator of a live delayed game stays that far behind.
            let settings = d.spectator_settings();
            let delayed = viewer == Viewer::Spectator && !d.is_over() && settings.policy != Policy::Public;
            let delay = if delayed { u64::from(settings.delay) } else { 0 };
            let watch = match who {
                Who::Granted(seat) => Some(Watch {
                    grants: Arc::clone(&self.grants),
                    token_hash: crate::model::hash_token(&options.view_token),
                    seat,
                    ends: self.grants.ends(),
                    seats: slot.seats.subscribe(),
                }),
                _ => None,
            };
            let own_from = super::replays::own_from(&d.recipe);
            // Subscribed under the lock: no update can slip between the
            // history copied here and the first live one.
            let abandoned = (d.record.status == crate::model::Status::Abandoned).then(|| d.abandoned_outcome());
            // The seats as they are now, and every later change: seats
            // change under the game's lock too, so none is missed or seen
            // twice.
            let seats = seat_updates.then(|| {
                let mut changes = slot.seats.subscribe();
                changes.mark_unchanged();
                SeatFollow { opening: d.summary(), changes }
            });
            let ended = d.is_over();
            let clocks_now = (d.seq(), d.clock_wire(), d.forfeited().to_vec());
            // The talk so far and every later line: lines are said under
            // the game's lock too.
            let talk = options.talk.then(|| {
                let backlog = d.talk.heard(&listeners, options.from_talk_seq, u64::MAX);
                let last = d.talk.lines.len() as u64;
                let follow = TalkFollow {
                    listeners,
                    pending: std::sync::Mutex::new(backlog.into()),
                    last: last.max(options.from_talk_seq).into(),
                };
                (follow, slot.talk.subscribe())
            });
            let entries = d.entries.clone();
            let live = slot.updates.subscribe();
            (
                viewer,
                d.recipe.clone(),
                entries,
                live,
                abandoned,
                seats,
                ended,
                holding,
                delay,
                watch,
                own_from,
                clocks_now,
                talk,
            )
        };
        let guard = if options.follow {
            self.caps.open_follow(client, self.limits.max_follows_per_client)?
        } else {
            self.caps.open_stream(client, self.limits.max_streams_per_client)?
        };
        let (tx, rx) = mpsc::channel(STREAM_BUFFER);
        let (talk, talk_rx) = match talk {
            Some((follow, rx)) => (Some(follow), Some(rx)),
            None => (None, None),
        };
        let stream = GameStream {
            talk,
            talk_rx,
            closed: slot.closed.subscribe(),
            slot,
            viewer,
            recipe,
            tx,
            shutdown: self.shutdown.subscribe(),
            abandoned,
            seats,
            ended,
            clocks_now,
            delay,
            watch,
            own_from,
            _holding: holding,
            _guard: guard,
        };
        if delay > 0 {
            tokio::spawn(run_delayed_stream(stream, entries, from_seq, live).in_current_span());
        } else {
            tokio::spawn(run_game_stream(stream, entries, from_seq, live).in_current_span());
        }
        Ok(rx)
    }
}
