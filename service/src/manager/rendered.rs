//! The states of one sequence number, rendered once per viewer and shared.
//! Building a viewer's `GameState` (the view, the labelled decision, the
//! typed state packed in `Any`, the state hash) is the dearest part of an
//! acknowledged choice; the reply to the submitter, GetView and every
//! stream subscriber at the same seq and viewer get a copy of one
//! rendering instead of each building their own. A game that shows every
//! viewer the same state (`HostedGame::same_state_for_every_viewer`) is
//! rendered once per seq for all of them: each viewer gets a copy with its
//! own `viewer_seat` and `can_undo`.

use super::state_for;
use crate::game::{HostedGame, Seat, Viewer};
use std::sync::{Arc, OnceLock};
use tabletop::pb;

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
    /// One cell per seat, rendered on first use (unused when every viewer
    /// sees the spectators' state).
    seats: Vec<OnceLock<pb::GameState>>,
    /// The spectators' state, rendered on first use.
    spectator: OnceLock<pb::GameState>,
    /// Whether every viewer sees the spectators' state, with its seat.
    same_for_all: bool,
}

impl Rendered {
    /// Nothing rendered yet for `game` at `seq`.
    pub(super) fn new(game_id: Arc<str>, seq: u64, game: Arc<dyn HostedGame>, undo: Option<Seat>) -> Rendered {
        let same_for_all = game.same_state_for_every_viewer();
        let seats = if same_for_all { Vec::new() } else { (0..game.seat_count()).map(|_| OnceLock::new()).collect() };
        Rendered { game_id, seq, game, undo, seats, spectator: OnceLock::new(), same_for_all }
    }

    /// The game at this seq.
    pub(super) fn game(&self) -> &dyn HostedGame {
        self.game.as_ref()
    }

    /// Whether this rendering is of `game` at `seq` with `undo`.
    pub(super) fn is_of(&self, seq: u64, game: &Arc<dyn HostedGame>, undo: Option<Seat>) -> bool {
        self.seq == seq && Arc::ptr_eq(&self.game, game) && self.undo == undo
    }

    /// The state `viewer` sees (a seat out of range sees what a spectator
    /// sees, as the engine shows it).
    pub(super) fn state(&self, viewer: Viewer) -> pb::GameState {
        if self.same_for_all {
            let mut state = self.spectator.get_or_init(|| self.render(Viewer::Spectator)).clone();
            if let Viewer::Seat(s) = viewer {
                state.viewer_seat = Some(u32::from(s));
                state.can_undo = self.undo == Some(s);
            }
            return state;
        }
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
        if self.same_for_all {
            self.spectator.get_or_init(|| self.render(Viewer::Spectator));
        } else if let Viewer::Seat(s) = viewer
            && let Some(cell) = self.seats.get(usize::from(s))
        {
            cell.get_or_init(|| self.render(viewer));
        }
    }

    fn render(&self, viewer: Viewer) -> pb::GameState {
        state_for(&self.game_id, self.seq, self.game.as_ref(), viewer, self.undo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xodus_for_tests::Table;
    use xodus_engine::{Difficulty, Game, GameConfig};

    #[test]
    fn a_shared_rendering_gives_each_viewer_what_its_own_would() {
        // Each viewer's copy equals the state rendered for it alone: its
        // seat, and the undo right of the seat that may undo only.
        let mut game = Game::new(GameConfig::random(3, 4, Difficulty::Casual)).expect("config");
        for step in 0..120usize {
            let table: Arc<dyn HostedGame> = Arc::new(Table::new(game.clone()));
            let undo = (step % 5 < 4).then_some((step % 4) as Seat);
            let rendered = Rendered::new(Arc::from("g-1"), step as u64, Arc::clone(&table), undo);
            rendered.warm(Viewer::Seat(0));
            let viewers = (0..4).map(Viewer::Seat).chain([Viewer::Spectator, Viewer::Seat(9)]);
            for v in viewers {
                assert_eq!(
                    rendered.state(v),
                    state_for("g-1", step as u64, table.as_ref(), v, undo),
                    "step {step}, {v:?}"
                );
            }
            let d = game.decision();
            let Some(o) = d.options.get(step % d.options.len().max(1)) else { break };
            let (seat, id) = (o.seats[0], o.id.clone());
            game.apply(seat, &id).expect("legal");
        }
    }
}
