//! The manager's API, one type per concern: [`Lobby`] (create, fork, list,
//! history, catalog, the lobby's stream), [`Seats`] (claim, release, view,
//! expel, view grants), [`Play`] (choices, undo, Play streams),
//! [`Streams`] (StreamGame) and [`Talk`] (table talk). Each borrows the
//! manager (`Manager::lobby()` and so on) and keeps its methods in the
//! file of its concern; what every concern shares (the games in memory
//! and their locks, the store, the lobby's index, the limits) is the
//! `Manager` core, which each type reaches through `Deref`. The
//! operator's side (load, upkeep, the cluster, shutdown) stays on
//! `Manager`.

use super::Manager;
use std::ops::Deref;
use std::sync::Arc;

/// Declares a concern's type: a borrow of the manager that reaches the
/// shared core through `Deref`.
macro_rules! concern {
    ($(#[$doc:meta])* $name:ident, $accessor:ident) => {
        $(#[$doc])*
        pub struct $name<'a> {
            /// The manager (an `Arc`: some calls run on tasks of their own).
            pub(super) m: &'a Arc<Manager>,
        }

        impl Deref for $name<'_> {
            type Target = Manager;
            fn deref(&self) -> &Manager {
                self.m
            }
        }

        impl Manager {
            #[doc = concat!("The [`", stringify!($name), "`] side of the manager.")]
            pub fn $accessor(self: &Arc<Self>) -> $name<'_> {
                $name { m: self }
            }
        }
    };
}

concern!(
    /// Games made, forked, listed, their history and catalog, and the
    /// lobby's stream (`lobby.rs`, `streams.rs`).
    Lobby,
    lobby
);
concern!(
    /// Seats claimed and released, a seat's view, votes to expel, and view
    /// grants (`seats.rs`, `replays.rs`, `spectators.rs`).
    Seats,
    seats
);
concern!(
    /// Choices and undos, unary or over a Play stream (`play.rs`,
    /// `play_stream.rs`).
    Play,
    play
);
concern!(
    /// StreamGame: a game's updates from a seq, then live (`streams.rs`).
    Streams,
    streams
);
concern!(
    /// Table talk: Say and MuteSeat (`talk.rs`).
    Talk,
    talk
);
