//! The network agent: plays seats of games hosted by `xodus-server`
//! through the public gRPC API only, from each seat's view.
//!
//! `table` plays every seat the process holds in one game over one stream
//! (claim or reuse tokens, follow the game, think, submit with the
//! expected sequence number, survive restarts and cuts); `seat` plays one
//! seat (a table of one); `status` says how a seat's play ends and which
//! server statuses say so; `dial` reads the address and connects; `fill`
//! is the daemon that watches the lobby and starts one table task per game
//! with seats open to AI; `conn` is the small pool of connections every
//! table shares, with the agent key; `follows` carries every table's game
//! on one FollowGames stream per connection;
//! `hints` answers the hints seats ask for (ServeHints);
//! `pace` keeps the process under its request rate and backs off with
//! jitter when the server says it is over; `think` shares the CPU fairly
//! between seats ready to decide; `backoff` is the reconnection schedule;
//! `shared` decides how long a seat leaves a decision it shares with
//! teammates to them; `claims` remembers the seats the process claimed, to
//! hand them back when it is stopped.

pub mod backoff;
pub mod claims;
pub mod conn;
pub mod dial;
pub mod fill;
pub mod follows;
pub mod hints;
pub mod pace;
pub mod seat;
pub mod shared;
pub mod status;
pub mod table;
pub mod think;

use crate::budget::Budget;

/// How the agent plays.
#[derive(Clone, Debug)]
pub struct AgentConfig {
    /// Server URL, e.g. `http://127.0.0.1:50051`, or several separated by
    /// commas (nodes of one service; `conn` moves off one that is gone).
    pub server: String,
    /// Policy for every seat it plays, by name (each game's own of that
    /// name; `games`).
    pub policy: String,
    /// Thinking budget per decision.
    pub budget: Budget,
    /// Seed of the policies (mixed with the game id and seat).
    pub seed: u64,
    /// Search threads per decision.
    pub threads: usize,
    /// How long a human teammate is given to take a decision this agent's
    /// seat shares with them (`shared`).
    pub courtesy: std::time::Duration,
    /// The operator's agent credential, sent as `x-agent-key` (the server
    /// then counts this process against its agent caps).
    pub agent_key: Option<String>,
    /// Connections to the server, shared by every seat.
    pub connections: usize,
    /// Requests per second the process sends at most (0: no limit).
    pub max_rps: u32,
    /// Games followed at once, at most.
    pub max_streams: usize,
    /// The machine's cores, shared by every seat's thinking.
    pub cores: usize,
}

impl AgentConfig {
    /// Decisions thought at once: the cores, divided by a search's own
    /// threads.
    pub fn think_slots(&self) -> usize {
        if crate::games::searches(&self.policy) { (self.cores / self.threads.max(1)).max(1) } else { self.cores.max(1) }
    }
}

/// Why the agent stopped.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The server URL does not parse.
    #[error("bad server URL '{0}': {1}")]
    Url(String, String),
    /// The server refused for good (not a transient failure).
    #[error("the server refused: {0}")]
    Refused(String),
}
