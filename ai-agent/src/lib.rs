//! # xodus-ai: AI players for the hosted games
//!
//! Policies that pick one of an engine's enumerated options from what a
//! seat may see, a local self-play harness that measures them, and (in the
//! binary) the gRPC agent that plays seats on a server, any hosted game
//! included (a game it has no policy for gets a legal random pick).
//!
//! The key design choice: every policy reads only a seat's view and builds
//! any full game it needs with its engine's `Game::from_view` (a
//! determinization that resamples the hidden half), never from the true
//! game, so self-play figures are honest about hidden information and the
//! same code plays on the network, where the view is all there is.
//!
//! Layout: `games` is the one list of the games with policies of their
//! own, and each game's folder under it holds all the agent knows of that
//! game (`games/xodus/`, `games/legio/`). The rest names no game: `agent`
//! (the gRPC client: one seat, or the lobby-filling daemon), `players`
//! (a seat of any game, by a random legal pick where a game has no
//! policy), `runner` (self-play games on threads), `budget`
//! (iterations/ms), `rng` (seeded tie-breaks), `stats` (intervals and
//! percentiles).
#![deny(missing_docs)]

pub mod agent;
pub mod budget;
pub mod games;
pub mod players;
pub mod rng;
pub mod runner;
pub mod stats;

pub use budget::Budget;
