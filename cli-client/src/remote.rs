//! The server, as the commands see it: a handful of calls in the game's
//! own types (views, events, option ids), with errors sorted into what a
//! person can act on. The gRPC details (messages, JSON payloads, status
//! codes) stay in this module.

use crate::clock::ClockRules;
use crate::games::{self, NewSetup};
use crate::hint::{Advice, Hint};
use crate::seats::{Holder, Seat, SeatHolder};
use crate::table::{Packed, Table, event_line};
use crate::talk::{Audience, Heard, Saying, clean};
use serde::Serialize;
use std::time::Duration;
use tabletop::dial::Targets;
use tabletop::{GameServiceClient, pb};
use tokio::sync::mpsc;
use tonic::transport::Channel;
use tonic::{Code, Status};

mod words;
use words::{About, cli_words};

/// A failed call, in words a person can act on.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    /// No server answers at the URL.
    #[error(
        "no X-ODUS server at {url} ({detail}); is xodus-server running there? (`xodus play` and `xodus watch` start a local one when --server is left out)"
    )]
    Unreachable {
        /// The URL tried.
        url: String,
        /// What failed.
        detail: String,
    },
    /// The game does not exist.
    #[error("game not found: {0}")]
    NotFound(String),
    /// The token or seat was refused.
    #[error("refused: {0}")]
    Refused(String),
    /// The choice answered an older state.
    #[error("stale: {0}")]
    Stale(String),
    /// The request or choice is not valid now.
    #[error("invalid: {0}")]
    Invalid(String),
    /// The server's address (--server) is not one this client can dial.
    #[error("bad --server address: {0}")]
    BadAddress(String),
    /// Too many lines said too fast (the server's words say when to
    /// retry).
    #[error("too fast: {0}")]
    TooFast(String),
    /// The server is there but what it waited on (the AI agent serving
    /// hints) did not answer in time.
    #[error("no answer in time: {0}")]
    NoAnswer(String),
    /// Anything else the server said.
    #[error("server error: {0}")]
    Other(String),
}

impl RemoteError {
    /// Process exit code for scripts: 3 not found, 4 refused, 5 stale,
    /// 6 invalid, 7 unreachable, 8 too fast (talk, hints), 9 no answer in
    /// time (hints), 2 a bad --server address (a bad command line), 1
    /// otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            RemoteError::BadAddress(_) => 2,
            RemoteError::NotFound(_) => 3,
            RemoteError::Refused(_) => 4,
            RemoteError::Stale(_) => 5,
            RemoteError::Invalid(_) => 6,
            RemoteError::Unreachable { .. } => 7,
            RemoteError::TooFast(_) => 8,
            RemoteError::NoAnswer(_) => 9,
            RemoteError::Other(_) => 1,
        }
    }
}

/// What a new game looks like.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The game and its setup.
    pub setup: NewSetup,
    /// Seats open to AI agents; the others are open to humans.
    pub ai_seats: Vec<Seat>,
    /// The seats' clock (None: untimed).
    pub clock: Option<ClockRules>,
}

impl NewGame {
    /// The number of seats of the game.
    pub fn seat_count(&self) -> u8 {
        self.setup.seats
    }

    /// The game's registered name.
    pub fn game_type(&self) -> &str {
        &self.setup.game_type
    }
}

/// A game in the lobby.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// Its id.
    pub id: String,
    /// The game's registered name (its type, as the server names it).
    pub game_type: String,
    /// Status in words (waiting, playing, over...).
    pub status: String,
    /// Each seat's role (X-ODUS: its ship; VII Legio: its commander).
    pub ships: Vec<String>,
    /// The level its configuration names (X-ODUS: the difficulty; empty
    /// for games without one).
    pub difficulty: String,
    /// Seats nobody holds yet.
    pub open_seats: Vec<Seat>,
    /// Choices accepted so far.
    pub seq: u64,
    /// The creator chose the seed: whoever guesses it can work out the
    /// hidden cards.
    pub seed_chosen: bool,
    /// How the seats are timed (null: no clock).
    pub clock: Option<ClockRules>,
}

/// One step of a game's stream.
#[derive(Clone, Debug)]
pub struct Step {
    /// Sequence number after this step.
    pub seq: u64,
    /// What happened, as the server sent it (each game's screen reads its
    /// own events from these).
    pub events: Vec<pb::Event>,
    /// What happened, one line per event (`Event.summary`), for any game.
    pub lines: Vec<String>,
    /// The state afterwards, when the server sent one.
    pub table: Option<Table>,
    /// Who holds each seat, when the server sent the seats with this step
    /// (the stream's first message, and each change between choices).
    pub seats: Option<Vec<SeatHolder>>,
    /// False for a message that carries only the seats: no state was sent,
    /// so there is no view to fetch.
    pub state_sent: bool,
    /// The step is an undo: it took back the last choice.
    pub undo: bool,
    /// The seat whose choice this step is, and who made it (its holder,
    /// an AI standing in, the server when its time ran out).
    /// (`played_by` is a `tabletop.v1.PlayedBy`; `clock::played_by_line`
    /// words it.)
    pub played_by: Option<(Seat, i32)>,
    /// The game's clock rules, when the server sent its summary with
    /// this step.
    pub clock: Option<ClockRules>,
    /// Table talk heard with this step (said at its seq, or, in a step
    /// with no state, said since), in talk_seq order.
    pub talk: Vec<Heard>,
}

impl Step {
    /// The state sent shows the game over.
    pub fn over(&self) -> bool {
        self.table.as_ref().is_some_and(Table::over)
    }
}

/// A connection to a server.
#[derive(Clone)]
pub struct Remote {
    url: String,
    client: GameServiceClient<Channel>,
}

/// How long connecting may take before the server counts as absent.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Sorts a gRPC status into what a person can act on.
/// A refused ClaimSeat: a seat already taken (or of an ended game) is a
/// seat refused (exit 4), like a wrong token, not an invalid request.
fn sort_claim(status: Status, url: &str, about: About<'_>) -> RemoteError {
    match status.code() {
        Code::FailedPrecondition => RemoteError::Refused(cli_words(status.message(), about)),
        _ => sort(status, url, about),
    }
}

/// Sorts a gRPC status into what a person can act on, its message in the
/// CLI's words (`words.rs`).
fn sort(status: Status, url: &str, about: About<'_>) -> RemoteError {
    let msg =
        if status.message().is_empty() { format!("{:?}", status.code()) } else { cli_words(status.message(), about) };
    match status.code() {
        Code::Unavailable => RemoteError::Unreachable { url: url.into(), detail: msg },
        Code::NotFound => RemoteError::NotFound(msg),
        Code::Unauthenticated | Code::PermissionDenied => RemoteError::Refused(msg),
        Code::Aborted => RemoteError::Stale(msg),
        Code::InvalidArgument | Code::FailedPrecondition | Code::OutOfRange => RemoteError::Invalid(msg),
        _ => RemoteError::Other(msg),
    }
}

/// A step from the wire.
fn step(seq: u64, state: Option<&pb::GameState>, wire: &[pb::Event]) -> Step {
    let table = state.map(games::read);
    Step {
        seq,
        events: wire.to_vec(),
        lines: wire.iter().map(event_line).collect(),
        state_sent: table.is_some(),
        table,
        seats: None,
        undo: false,
        played_by: None,
        clock: None,
        talk: Vec::new(),
    }
}

/// A line of talk from the wire.
pub fn heard(line: &pb::TalkLine) -> Heard {
    let seat = |s: u32| Seat::try_from(s).unwrap_or(Seat::MAX);
    let audience = match pb::TalkAudience::try_from(line.audience) {
        Ok(pb::TalkAudience::Team) => Audience::Team,
        Ok(pb::TalkAudience::Seat) => Audience::Seat(seat(line.to_seat.unwrap_or_default())),
        _ => Audience::Table,
    };
    Heard {
        talk_seq: line.talk_seq,
        game_seq: line.game_seq,
        speaker: seat(line.speaker),
        speaker_ai: line.speaker_ai,
        audience,
        text: clean(&line.text),
        signal_words: clean(&line.signal_words),
        intent: line.intent,
    }
}

/// A kept line as `xodus say` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct KeptLine {
    /// The game.
    pub game: String,
    /// Its number in the game's talk.
    pub talk_seq: u64,
    /// The game's seq when it was said.
    pub game_seq: u64,
    /// The speaking seat.
    pub speaker: u32,
    /// An AI held the seat.
    pub speaker_ai: bool,
    /// "table", "team" or "seat".
    pub audience: &'static str,
    /// The seat addressed (audience "seat").
    pub to_seat: Option<u32>,
    /// The text, as kept.
    pub text: String,
    /// The signal in the server's words ("" without one).
    pub signal_words: String,
    /// An AI's plan.
    pub intent: bool,
    /// When the server accepted it, in milliseconds since 1970.
    pub said_at_ms: Option<i64>,
}

fn kept(game: &str, line: &pb::TalkLine) -> KeptLine {
    let audience = match pb::TalkAudience::try_from(line.audience) {
        Ok(pb::TalkAudience::Team) => "team",
        Ok(pb::TalkAudience::Seat) => "seat",
        _ => "table",
    };
    KeptLine {
        game: game.to_string(),
        talk_seq: line.talk_seq,
        game_seq: line.game_seq,
        speaker: line.speaker,
        speaker_ai: line.speaker_ai,
        audience,
        to_seat: line.to_seat,
        text: line.text.clone(),
        signal_words: line.signal_words.clone(),
        intent: line.intent,
        said_at_ms: line.said_at.as_ref().map(|t| t.seconds * 1000 + i64::from(t.nanos) / 1_000_000),
    }
}

/// A refused Say: too fast is its own (exit 8); a line the game cannot
/// take (team talk in a competitive game) is invalid.
fn sort_say(status: Status, url: &str, about: About<'_>) -> RemoteError {
    match status.code() {
        Code::ResourceExhausted => RemoteError::TooFast(cli_words(status.message(), about)),
        _ => sort(status, url, about),
    }
}

/// A refused AskHint: asked too soon is too fast (exit 8); UNAVAILABLE
/// from a server that answered is its agent not answering in time (9),
/// not a missing server; no decision now or no agent serving hints is
/// invalid (6), in the server's words.
fn sort_hint(status: Status, url: &str, about: About<'_>) -> RemoteError {
    match status.code() {
        Code::ResourceExhausted => RemoteError::TooFast(cli_words(status.message(), about)),
        // The server's own words name its agent; a lost connection does not.
        Code::Unavailable if status.message().contains("agent") => RemoteError::NoAnswer(status.message().to_string()),
        _ => sort(status, url, about),
    }
}

/// Who holds each seat of a game, from its summary.
fn holders(g: &pb::GameSummary) -> Vec<SeatHolder> {
    g.seats
        .iter()
        .filter_map(|s| {
            let seat = Seat::try_from(s.seat).ok()?;
            let by_ai = s.claimed_by == pb::Claimant::Ai as i32;
            Some(SeatHolder { seat, holder: Holder::from_wire(s.claimed, by_ai, s.idle, s.stand_in) })
        })
        .collect()
}

fn summary(g: pb::GameSummary) -> GameSummary {
    let status = match pb::GameStatus::try_from(g.status) {
        Ok(pb::GameStatus::Open) => "open",
        Ok(pb::GameStatus::Playing) => "playing",
        Ok(pb::GameStatus::Finished) => "finished",
        Ok(pb::GameStatus::Abandoned) => "abandoned",
        _ => "unknown",
    };
    // The typed configuration, read by the game it is of.
    let difficulty = g.game_config.as_ref().map(games::level).unwrap_or_default();
    GameSummary {
        status: status.to_string(),
        ships: g.seats.iter().map(|s| s.role.clone()).collect(),
        difficulty,
        open_seats: g.seats.iter().filter(|s| !s.claimed).map(|s| s.seat as Seat).collect(),
        seq: g.seq,
        seed_chosen: g.seed_chosen,
        clock: g.clock.as_ref().and_then(ClockRules::from_wire),
        game_type: if g.game_type.is_empty() { games::default_type().to_string() } else { g.game_type },
        id: g.game_id,
    }
}

impl Remote {
    /// Connects to `url`, or to the first address that answers of a
    /// comma-separated list of them (nodes of one service).
    pub async fn connect(url: &str) -> Result<Remote, RemoteError> {
        let unreachable = |detail: String| RemoteError::Unreachable { url: url.into(), detail };
        let targets =
            Targets::parse(url).map_err(|e| RemoteError::BadAddress(e.to_string()))?.connect_timeout(CONNECT_TIMEOUT);
        let (channel, _) = targets.connect_any().await.map_err(|e| {
            let mut detail = e.to_string();
            let mut src = std::error::Error::source(&e);
            while let Some(s) = src {
                detail = s.to_string();
                src = s.source();
            }
            unreachable(detail)
        })?;
        Ok(Remote { url: url.into(), client: GameServiceClient::new(channel) })
    }

    /// The server's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Creates a game; returns its id.
    pub async fn create(&self, game: &NewGame) -> Result<String, RemoteError> {
        let seats = (0..game.seat_count())
            .map(|s| if game.ai_seats.contains(&s) { pb::SeatOpenTo::Ai } else { pb::SeatOpenTo::Human } as i32)
            .collect();
        let req = pb::CreateGameRequest {
            kind: game.setup.kind,
            game_type: game.game_type().to_string(),
            seats,
            setup: game.setup.wire.clone(),
            clock: game.clock.as_ref().map(ClockRules::to_wire),
            ..Default::default()
        };
        let resp = self.client.clone().create_game(req).await.map_err(|s| sort(s, &self.url, About::default()))?;
        resp.into_inner()
            .game
            .map(|g| g.game_id)
            .ok_or_else(|| RemoteError::Other("the server created no game (its answer named none)".into()))
    }

    /// Lists the games, every page.
    pub async fn list(&self) -> Result<Vec<GameSummary>, RemoteError> {
        let mut games = Vec::new();
        let mut page_token = String::new();
        loop {
            let req = pb::ListGamesRequest { status: 0, only_open_seats: false, page_size: 1000, page_token };
            let page = self
                .client
                .clone()
                .list_games(req)
                .await
                .map_err(|s| sort(s, &self.url, About::default()))?
                .into_inner();
            games.extend(page.games.into_iter().map(summary));
            if page.next_page_token.is_empty() {
                return Ok(games);
            }
            page_token = page.next_page_token;
        }
    }

    /// Claims a seat as a human; returns its token.
    pub async fn join(&self, game: &str, seat: Seat) -> Result<String, RemoteError> {
        self.claim(game, seat, pb::Claimant::Human).await
    }

    /// Claims a seat for an AI captain this client starts; returns its token.
    pub async fn claim_for_ai(&self, game: &str, seat: Seat) -> Result<String, RemoteError> {
        self.claim(game, seat, pb::Claimant::Ai).await
    }

    async fn claim(&self, game: &str, seat: Seat, claimant: pb::Claimant) -> Result<String, RemoteError> {
        let req = pb::ClaimSeatRequest {
            game_id: game.to_string(),
            seat: u32::from(seat),
            claimant: claimant as i32,
            token: String::new(),
        };
        let about = About { game, seat: Some(seat) };
        let resp = self.client.clone().claim_seat(req).await.map_err(|s| sort_claim(s, &self.url, about))?;
        Ok(resp.into_inner().token)
    }

    /// Takes back a seat this client holds the token of (after a restart).
    pub async fn reclaim(&self, game: &str, seat: Seat, token: &str) -> Result<(), RemoteError> {
        let req = pb::ClaimSeatRequest {
            game_id: game.to_string(),
            seat: u32::from(seat),
            claimant: pb::Claimant::Human as i32,
            token: token.to_string(),
        };
        let about = About { game, seat: Some(seat) };
        self.client.clone().claim_seat(req).await.map_err(|s| sort(s, &self.url, about))?;
        Ok(())
    }

    /// Gives a seat back (ReleaseSeat): it is open again and `token` stops
    /// working. Returns the game as the lobby lists it afterwards.
    pub async fn release(&self, game: &str, seat: Seat, token: &str) -> Result<GameSummary, RemoteError> {
        let req = pb::ReleaseSeatRequest {
            game_id: game.to_string(),
            credentials: Some(pb::SeatCredentials { seat: u32::from(seat), token: token.to_string() }),
        };
        let about = About { game, seat: Some(seat) };
        let resp = self.client.clone().release_seat(req).await.map_err(|s| sort(s, &self.url, about))?;
        resp.into_inner()
            .game
            .map(summary)
            .ok_or_else(|| RemoteError::Other(format!("the server gave seat {seat} back but named no game")))
    }

    /// The current state of any game, as a spectator sees it or, with a
    /// seat and its token, as that seat sees it (its own secrets, its own
    /// options).
    pub async fn state(&self, game: &str, seat: Option<(Seat, &str)>) -> Result<Table, RemoteError> {
        let credentials =
            seat.map(|(seat, token)| pb::SeatCredentials { seat: u32::from(seat), token: token.to_string() });
        let req = pb::GetViewRequest { game_id: game.to_string(), credentials, ..Default::default() };
        let about = About { game, seat: seat.map(|(s, _)| s) };
        let resp = self.client.clone().get_view(req).await.map_err(|s| sort(s, &self.url, about))?.into_inner();
        let state = resp.state.ok_or_else(|| RemoteError::Other("the server sent no state".into()))?;
        let mut table = games::read(&state);
        // The summary is the live game's, read with the state: a delayed
        // spectator's state is that far behind it.
        if let Some(game) = &resp.game {
            table.set_live_seq(game.seq);
        }
        table.muted = resp.muted;
        Ok(table)
    }

    /// The game's past, for any game: for each history entry, whether it
    /// is an undo, and the events it caused (GetHistory carries the events
    /// the stream sent). Read as the seat (with its token) or as a
    /// spectator, so it shows no more than the caller may see. What a
    /// screen opened on a game in progress logs first.
    pub async fn past(
        &self,
        game: &str,
        seat: Option<(Seat, &str)>,
    ) -> Result<Vec<(bool, Vec<pb::Event>)>, RemoteError> {
        let credentials =
            seat.map(|(seat, token)| pb::SeatCredentials { seat: u32::from(seat), token: token.to_string() });
        let req = pb::GetHistoryRequest { game_id: game.to_string(), credentials, ..Default::default() };
        let about = About { game, seat: seat.map(|(s, _)| s) };
        let resp = self.client.clone().get_history(req).await.map_err(|s| sort(s, &self.url, about))?;
        Ok(resp.into_inner().entries.into_iter().map(|e| (e.kind == pb::EntryKind::Undo as i32, e.events)).collect())
    }

    /// Sends a choice; returns the step it caused (with the state as the
    /// seat sees it afterwards).
    pub async fn act(
        &self,
        game: &str,
        seat: Seat,
        token: &str,
        option: &str,
        expect_seq: u64,
    ) -> Result<Step, RemoteError> {
        let req = pb::SubmitChoiceRequest {
            game_id: game.to_string(),
            credentials: Some(pb::SeatCredentials { seat: u32::from(seat), token: token.to_string() }),
            expected_seq: Some(expect_seq),
            choice: Some(pb::submit_choice_request::Choice::OptionId(option.to_string())),
        };
        let about = About { game, seat: Some(seat) };
        let resp = self.client.clone().submit_choice(req).await.map_err(|s| sort(s, &self.url, about))?.into_inner();
        let mut step = step(resp.seq, resp.state.as_ref(), &resp.events);
        step.state_sent = true;
        Ok(step)
    }

    /// Takes back `seat`'s last choice; returns the new sequence number.
    pub async fn undo(&self, game: &str, seat: Seat, token: &str, expect_seq: u64) -> Result<u64, RemoteError> {
        let req = pb::UndoRequest {
            game_id: game.to_string(),
            credentials: Some(pb::SeatCredentials { seat: u32::from(seat), token: token.to_string() }),
            expected_seq: Some(expect_seq),
        };
        let about = About { game, seat: Some(seat) };
        let resp = self.client.clone().undo(req).await.map_err(|s| sort(s, &self.url, about))?;
        Ok(resp.into_inner().seq)
    }

    /// Says a line at the table as `seat`; returns the line as kept.
    pub async fn say(&self, game: &str, seat: Seat, token: &str, line: &Saying) -> Result<KeptLine, RemoteError> {
        let (audience, to_seat) = match line.audience {
            Audience::Table => (pb::TalkAudience::Table, None),
            Audience::Team => (pb::TalkAudience::Team, None),
            Audience::Seat(s) => (pb::TalkAudience::Seat, Some(u32::from(s))),
        };
        let req = pb::SayRequest {
            game_id: game.to_string(),
            credentials: Some(pb::SeatCredentials { seat: u32::from(seat), token: token.to_string() }),
            audience: audience as i32,
            to_seat,
            text: line.text.clone(),
            signal: line
                .signal
                .as_ref()
                .map(|p: &Packed| prost_types::Any { type_url: p.type_url.clone(), value: p.value.clone() }),
            intent: false,
        };
        let about = About { game, seat: Some(seat) };
        let resp = self.client.clone().say(req).await.map_err(|s| sort_say(s, &self.url, about))?.into_inner();
        let line = resp.line.ok_or_else(|| RemoteError::Other("the server kept the line but sent none back".into()))?;
        Ok(kept(game, &line))
    }

    /// Asks the AI agent serving hints for `seat`'s best options now
    /// (AskHint): up to three, best first, each one of the seat's own.
    pub async fn ask_hint(&self, game: &str, seat: Seat, token: &str) -> Result<Hint, RemoteError> {
        let req = pb::AskHintRequest {
            game_id: game.to_string(),
            credentials: Some(pb::SeatCredentials { seat: u32::from(seat), token: token.to_string() }),
        };
        let about = About { game, seat: Some(seat) };
        let resp = self.client.clone().ask_hint(req).await.map_err(|s| sort_hint(s, &self.url, about))?.into_inner();
        let options = resp
            .options
            .into_iter()
            .map(|o| Advice {
                option_id: o.option_id,
                label: clean(&o.label),
                estimate: if o.estimate.is_finite() { o.estimate } else { 0.0 },
                reason: clean(&o.reason),
            })
            .collect();
        Ok(Hint { game: game.to_string(), seat, seq: resp.seq, options, think_ms: resp.think_ms })
    }

    /// Stops (`muted`) or resumes hearing `other` as `seat` (MuteSeat);
    /// returns the seats `seat` does not hear now.
    pub async fn mute(
        &self,
        game: &str,
        (seat, token): (Seat, &str),
        other: Seat,
        muted: bool,
    ) -> Result<Vec<Seat>, RemoteError> {
        let req = pb::MuteSeatRequest {
            game_id: game.to_string(),
            credentials: Some(pb::SeatCredentials { seat: u32::from(seat), token: token.to_string() }),
            seat: u32::from(other),
            muted,
        };
        let about = About { game, seat: Some(seat) };
        let resp = self.client.clone().mute_seat(req).await.map_err(|s| sort(s, &self.url, about))?.into_inner();
        Ok(resp.muted.into_iter().filter_map(|s| Seat::try_from(s).ok()).collect())
    }

    /// Streams the game's steps after `from_seq` as a spectator (or as
    /// `seat` with its token: its own secrets and options), with the
    /// seats' holders and their changes and the table talk heard after
    /// `from_talk_seq`, sending them on `tx` until the stream ends, the
    /// game ends or the receiver goes away.
    pub async fn follow(
        &self,
        game: &str,
        from_seq: u64,
        from_talk_seq: u64,
        seat: Option<(Seat, String)>,
        tx: mpsc::UnboundedSender<Step>,
    ) -> Result<(), RemoteError> {
        let about = About { game, seat: seat.as_ref().map(|(s, _)| *s) };
        let credentials = seat.map(|(seat, token)| pb::SeatCredentials { seat: u32::from(seat), token });
        let req = pb::StreamGameRequest {
            game_id: game.to_string(),
            from_seq,
            credentials,
            seat_updates: true,
            talk: true,
            from_talk_seq,
            ..Default::default()
        };
        let mut stream =
            self.client.clone().stream_game(req).await.map_err(|s| sort(s, &self.url, about))?.into_inner();
        while let Some(update) = stream.message().await.map_err(|s| sort(s, &self.url, about))? {
            let mut step = step(update.seq, update.state.as_ref(), &update.events);
            if let (Some(table), Some(game)) = (step.table.as_mut(), update.game.as_ref()) {
                table.set_live_seq(game.seq);
            }
            step.seats = update.game.as_ref().map(holders);
            step.undo = update.entry.as_ref().is_some_and(|e| e.kind == pb::EntryKind::Undo as i32);
            step.played_by = update.entry.as_ref().and_then(|e| {
                let seat = Seat::try_from(e.seat).ok()?;
                Some((seat, e.played_by))
            });
            step.clock = update.game.as_ref().and_then(|g| g.clock.as_ref()).and_then(ClockRules::from_wire);
            step.talk = update.talk.iter().map(heard).collect();
            let over = step.over();
            if tx.send(step).is_err() || over {
                return Ok(());
            }
        }
        Ok(())
    }
}
