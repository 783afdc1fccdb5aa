//! # tabletop-kit: what every game engine of the service shares
//!
//! The service's games are pure, deterministic state machines. Three
//! pieces are the same for all of them and live here once:
//! - [`rng::GameRng`]: the only source of randomness, a ChaCha8 generator
//!   seeded from the game's seed and carried inside the state;
//! - [`canon`]: a canonical binary encoding of any serde value;
//! - [`hash::state_hash`]: FNV-1a over that encoding plus the generator's
//!   exact position, the same on every machine and compiler;
//! - [`content`]: content files read from TOML, with errors that name the
//!   file and the entry.
//!
//! No I/O, no clock, no global state.
#![deny(missing_docs)]

pub mod canon;
pub mod content;
pub mod hash;
pub mod rng;
