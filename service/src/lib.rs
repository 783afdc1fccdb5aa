//! # tabletop-service: the game-neutral game server
//!
//! Hosts many games at once and is the only authority on them; it never
//! decides a rule itself but asks the game through the hosting contract
//! ([`game`]), and names no game engine: the binary `xodus-server`
//! (crate `xodus-server`) registers the shipped games. Layout, one job per
//! module:
//!
//! - [`game`]: the hosting contract and the registry of game types;
//! - [`conformance`]: the checks every hosted game must pass;
//! - `secrecy`: the guards every choice passes (refusals, undo rights);
//! - [`model`]: the server's records (seats, claims, entries), no gRPC, no SQL;
//! - [`store`]: the [`store::GameStore`] trait and its stores: SQLite (the
//!   default), PostgreSQL (which several nodes may share) and memory;
//! - `store::migrations`: the SQLite and PostgreSQL schemas as numbered migrations;
//! - `dir_lock`: one server per data directory (an OS lock, the holder's pid);
//! - [`manager`]: every hosted game behind per-game locks, choices made
//!   durable before they are acknowledged, streams that replay and follow;
//! - [`wire`]: checking requests and building lobby messages;
//! - [`grpc`]: the thin `GameService` implementation on this node's games;
//! - `routing`: the layer in front of it that forwards a call about a game
//!   another node owns to that node (`peers`: reaching the other nodes);
//! - [`replay`]: rebuilding a game from its entries (and a fork's resamplings);
//! - [`limits`]: caps and the per-client rate limit;
//! - [`connections`]: the cap on open connections;
//! - [`codes`]: the status codes promised for undecodable or oversized requests;
//! - [`error`]: errors and their gRPC status codes;
//! - `access`: one log line per call at its end, and the call figures;
//! - [`metrics`]: the figures an operator graphs, as Prometheus text;
//! - `clock`: turn clocks; `listen`: TCP and Unix-socket listeners; `web`:
//!   a front-end's static files and CORS; `health`: readiness;
//! - [`server`]: [`run`] (listener + config + shutdown future), used by
//!   `main` and by the tests on port 0.
//!
//! The key design choice is event sourcing: a game is stored as its config
//! (with the seed, which never leaves the server while the game is live
//! except to its creator) and the ordered list of accepted choices.
//! The engine is deterministic, so replaying that list rebuilds the state
//! after a restart, replays past updates to a resuming stream, and forks a
//! game at any sequence number, all with one mechanism.
#![deny(missing_docs)]

pub(crate) mod access;
pub(crate) mod clock;
pub(crate) mod codes;
pub mod conformance;
pub(crate) mod connections;
pub(crate) mod dir_lock;
pub(crate) mod error;
pub(crate) mod follow;
pub mod game;
pub(crate) mod grpc;
pub(crate) mod health;
pub(crate) mod hints;
pub(crate) mod limits;
pub(crate) mod listen;
pub(crate) mod manager;
pub mod metrics;
pub(crate) mod model;
pub(crate) mod peers;
#[doc(hidden)]
pub mod probe;
pub(crate) mod replay;
pub(crate) mod routing;
pub(crate) mod secrecy;
pub(crate) mod server;
pub(crate) mod store;
pub(crate) mod web;
pub(crate) mod wire;

// The manager's tests host the real X-ODUS adapter, compiled in from its
// crate `games/xodus/host` (which depends on this one, so it cannot be a dependency);
// the adapter names this crate `tabletop_service`, as it does there.
#[cfg(test)]
extern crate self as tabletop_service;
#[cfg(test)]
#[path = "../../games/xodus/host/src/lib.rs"]
mod xodus_for_tests;

pub use dir_lock::{DataDirLock, DirLockError};
pub use game::Registry;
pub use limits::Limits;
pub use listen::Listener;
pub use server::{NodeConfig, ServerConfig, ServerError, Storage, run, run_on};
pub use web::WebConfig;
