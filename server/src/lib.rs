//! # xodus-server: the service as shipped
//!
//! The service library (`tabletop-service`) hosts any game through its hosting
//! contract and names none. Each game brings its adapter to that contract
//! in its own folder (`games/<game>/host`); [`registry`] is the one list of
//! the games a server started from `main` hosts.
#![deny(missing_docs)]

use std::sync::Arc;
use tabletop_service::Registry;

/// The games this server ships with: X-ODUS and VII Legio.
pub fn registry() -> Registry {
    Registry::new().with(Arc::new(xodus_host::Xodus)).with(Arc::new(legio_host::Legio))
}

/// The shipped games and the demonstration game High Card (`--demo-games`),
/// the example of a game added with its own crate and this one line.
pub fn registry_with_demo() -> Registry {
    registry().with(high_card::game_type())
}
