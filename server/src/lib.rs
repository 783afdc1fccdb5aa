//! # xodus-server: the service as shipped
//!
//! The service library (`tabletop-service`) hosts any game through its hosting
//! contract and names none. This crate is the edge where the shipped games
//! are assembled: [`games`] adapts each engine to the contract, and
//! [`registry`] is the set a server started from `main` hosts.
#![deny(missing_docs)]

pub mod games;

use std::sync::Arc;
use tabletop_service::Registry;

/// The games this server ships with: X-ODUS and VII Legio.
pub fn registry() -> Registry {
    Registry::new().with(Arc::new(games::xodus::Xodus)).with(Arc::new(games::legio::Legio))
}

/// The shipped games and the demonstration game High Card (`--demo-games`),
/// the example of a game added with its own crate and this one line.
pub fn registry_with_demo() -> Registry {
    registry().with(high_card::game_type())
}
