//! # xodus-ai: AI players for the hosted games
//!
//! X-ODUS captains and VII Legio commanders: policies that pick one of an
//! engine's enumerated options from what a seat may see, a local self-play
//! harness that measures them, and (in the binary) the gRPC agent that
//! plays seats on a server, any hosted game included (a game it has no
//! policy for gets a legal random pick).
//!
//! The key design choice: every policy reads only a seat's view (X-ODUS's
//! [`View`], VII Legio's `legio_engine::View`) and builds any full game it
//! needs with its engine's `Game::from_view` (a determinization
//! that resamples the hidden half), never from the true game, so self-play
//! figures are honest about hidden information and the same code plays on
//! the network, where the view is all there is.
//!
//! Layout: `rng` (seeded tie-breaks), `budget` (iterations/ms), `board`
//! (distances over the public map), `eval` (the X-ODUS team's value of a
//! state), `skill` (Skill Roll odds), `value` and `fitting` (a learned
//! chance to win, off by default), `tune` (weights overridden at run
//! time), `policy` (random, heuristic, mcts), `selfplay` (games on threads),
//! `stats` (Wilson interval, percentiles, the summary), `agent` (the gRPC
//! client: one seat, or the lobby-filling daemon). `legio` holds the VII
//! Legio commanders (random, heuristic, search, self-play), each playing
//! for its own rank from its seat's view. `games` lists each game's
//! policies (`policy::game`, `legio::game`) and `players` plays a seat of
//! any game, by a random legal pick where a game has no policy.
//!
//! [`View`]: xodus_engine::View
#![deny(missing_docs)]

pub mod agent;
pub mod board;
pub mod budget;
pub mod eval;
pub mod fitting;
pub mod games;
pub mod legio;
pub mod players;
pub mod policy;
pub mod rng;
pub mod runner;
pub mod selfplay;
pub mod skill;
pub mod stats;
pub mod tune;
pub mod value;

pub use budget::Budget;
pub use policy::{Policy, PolicyKind};
