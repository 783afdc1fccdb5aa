//! The network agent: plays seats of games hosted by `xodus-server`
//! through the public gRPC API only, from each seat's view.
//!
//! `seat` plays one seat to the end of its game (claim or reuse a token,
//! follow the game's stream, think, submit with the expected sequence
//! number, survive restarts and cuts); `fill` is the daemon that watches
//! the lobby and starts one seat task per seat open to AI; `backoff` is
//! the reconnection schedule they share; `shared` decides how long a seat
//! leaves a decision it shares with teammates to them; `claims` remembers the seats the
//! process claimed, to hand them back when it is stopped.

pub mod backoff;
pub mod claims;
pub mod fill;
pub mod seat;
pub mod shared;

use crate::budget::Budget;
use crate::policy::PolicyKind;

/// How the agent plays.
#[derive(Clone, Debug)]
pub struct AgentConfig {
    /// Server URL, e.g. `http://127.0.0.1:50051`.
    pub server: String,
    /// Policy for every seat it plays.
    pub policy: PolicyKind,
    /// Thinking budget per decision.
    pub budget: Budget,
    /// Seed of the policies (mixed with the game id and seat).
    pub seed: u64,
    /// Search threads per decision.
    pub threads: usize,
    /// How long a human teammate is given to take a decision this agent's
    /// seat shares with them (`shared`).
    pub courtesy: std::time::Duration,
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
