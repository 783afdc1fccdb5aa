//! The server, as the commands see it: a handful of calls in the game's
//! own types (views, events, option ids), with errors sorted into what a
//! person can act on. The gRPC details (messages, JSON payloads, status
//! codes) stay in this module.

use serde::Serialize;
use xodus_engine::{Event, Seat, ShipKind, View};

/// A failed call, in words a person can act on.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    /// No server answers at the URL.
    #[error(
        "no X-ODUS server at {url} ({detail}); start one with `xodus-server` or leave out --server to start a local one"
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
    /// Anything else the server said.
    #[error("server error: {0}")]
    Other(String),
}

impl RemoteError {
    /// Process exit code for scripts: 3 not found, 4 refused, 5 stale,
    /// 6 invalid, 7 unreachable, 1 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            RemoteError::NotFound(_) => 3,
            RemoteError::Refused(_) => 4,
            RemoteError::Stale(_) => 5,
            RemoteError::Invalid(_) => 6,
            RemoteError::Unreachable { .. } => 7,
            RemoteError::Other(_) => 1,
        }
    }
}

/// What a new game looks like.
#[derive(Clone, Debug, Default)]
pub struct NewGame {
    /// Number of ships when `ships` is empty.
    pub ship_count: u8,
    /// Ships chosen by seat (random when empty).
    pub ships: Vec<ShipKind>,
    /// Difficulty name.
    pub difficulty: String,
    /// Allies by name (random when empty).
    pub allies: Vec<String>,
    /// Seed (random when absent).
    pub seed: Option<u64>,
    /// Seats open to AI agents; the others are open to humans.
    pub ai_seats: Vec<Seat>,
}

/// A game in the lobby.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// Its id.
    pub id: String,
    /// Status in words (waiting, playing, over...).
    pub status: String,
    /// Ships by seat.
    pub ships: Vec<String>,
    /// Difficulty.
    pub difficulty: String,
    /// Seats nobody holds yet.
    pub open_seats: Vec<Seat>,
    /// Choices accepted so far.
    pub seq: u64,
}

/// One step of a game's stream.
#[derive(Clone, Debug)]
pub struct Step {
    /// Sequence number after this step.
    pub seq: u64,
    /// What happened.
    pub events: Vec<Event>,
    /// The view afterwards, when the server sent one.
    pub view: Option<View>,
}

/// A connection to a server.
#[derive(Clone)]
pub struct Remote {
    url: String,
}

impl Remote {
    /// Connects to `url`.
    pub async fn connect(url: &str) -> Result<Remote, RemoteError> {
        Err(RemoteError::Unreachable { url: url.into(), detail: "gRPC client not wired yet".into() })
    }

    /// The server's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Creates a game; returns its id.
    pub async fn create(&self, _game: &NewGame) -> Result<String, RemoteError> {
        Err(RemoteError::Other("not wired".into()))
    }

    /// Lists the games.
    pub async fn list(&self) -> Result<Vec<GameSummary>, RemoteError> {
        Err(RemoteError::Other("not wired".into()))
    }

    /// Claims a seat; returns its token.
    pub async fn join(&self, _game: &str, _seat: Seat, _name: &str) -> Result<String, RemoteError> {
        Err(RemoteError::Other("not wired".into()))
    }

    /// The current view (as a seat, or a spectator).
    pub async fn view(&self, _game: &str, _seat: Option<Seat>) -> Result<View, RemoteError> {
        Err(RemoteError::Other("not wired".into()))
    }

    /// Sends a choice; returns the step it caused.
    pub async fn act(
        &self,
        _game: &str,
        _seat: Seat,
        _token: &str,
        _option: &str,
        _expect_seq: u64,
    ) -> Result<Step, RemoteError> {
        Err(RemoteError::Other("not wired".into()))
    }

    /// Streams the game's steps after `from_seq`, sending them on `tx`
    /// until the game ends or the receiver goes away.
    pub async fn follow(
        &self,
        _game: &str,
        _seat: Option<Seat>,
        _from_seq: u64,
        _tx: tokio::sync::mpsc::UnboundedSender<Step>,
    ) -> Result<(), RemoteError> {
        Err(RemoteError::Other("not wired".into()))
    }
}
