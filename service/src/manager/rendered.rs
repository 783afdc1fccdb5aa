//! The states of one sequence number, rendered once per viewer and shared.
//! Building a viewer's `GameState` (the view, the labelled decision, the
//! typed state packed in `Any`, the state hash) is the dearest part of an
//! acknowledged choice; the reply to the submitter, GetView and every
//! stream subscriber at the same seq and viewer get a copy of one
//! rendering instead of each building their own.

use super::state_for;
use crate::game::{HostedGame, Seat, Viewer};
use std::sync::{Arc, OnceLock};
use xodus::pb;

/// Lazily rendered states of one game at one seq.
pub(super) struct Rendered {
    /// The game's id, as the states carry it.
    game_id: Arc<str>,
    /// The seq the states are at.
    seq: u64,
    /// The game at that seq.
    game: Arc<dyn HostedGame>,
    /// The seat that may undo at that seq.
    undo: Option<Seat>,
    /// One cell per seat, rendered on first use.
    seats: Vec<OnceLock<pb::GameState>>,
    /// The spectators' state, rendered on first use.
    spectator: OnceLock<pb::GameState>,
}

impl Rendered {
    /// Nothing rendered yet for `game` at `seq`.
    pub(super) fn new(game_id: Arc<str>, seq: u64, game: Arc<dyn HostedGame>, undo: Option<Seat>) -> Rendered {
        let seats = (0..game.seat_count()).map(|_| OnceLock::new()).collect();
        Rendered { game_id, seq, game, undo, seats, spectator: OnceLock::new() }
    }

    /// Whether this rendering is of `game` at `seq` with `undo`.
    pub(super) fn is_of(&self, seq: u64, game: &Arc<dyn HostedGame>, undo: Option<Seat>) -> bool {
        self.seq == seq && Arc::ptr_eq(&self.game, game) && self.undo == undo
    }

    /// The state `viewer` sees (a seat out of range sees what a spectator
    /// sees, as the engine shows it).
    pub(super) fn state(&self, viewer: Viewer) -> pb::GameState {
        let cell = match viewer {
            Viewer::Seat(s) => self.seats.get(usize::from(s)),
            Viewer::Spectator => Some(&self.spectator),
        };
        match cell {
            Some(cell) => cell.get_or_init(|| self.render(viewer)).clone(),
            None => self.render(viewer),
        }
    }

    /// Renders `viewer`'s state now, so that a later [`Rendered::state`]
    /// only copies it.
    pub(super) fn warm(&self, viewer: Viewer) {
        if let Viewer::Seat(s) = viewer
            && let Some(cell) = self.seats.get(usize::from(s))
        {
            cell.get_or_init(|| self.render(viewer));
        }
    }

    fn render(&self, viewer: Viewer) -> pb::GameState {
        state_for(&self.game_id, self.seq, self.game.as_ref(), viewer, self.undo)
    }
}
