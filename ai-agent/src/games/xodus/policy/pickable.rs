//! What the look-ahead needs of an option, whether a client's labelled
//! `ChoiceOption` (from a view's decision) or the engine's fast-path
//! `Move` (from `Game::legal`, no labels or ids built): its choice, the
//! seats that may take it, and playing it on a determinization by value.

use xodus_engine::{Choice, ChoiceOption, Game, Move, Seat};

/// An option the look-ahead can score.
pub trait Pickable {
    /// The structured choice.
    fn choice(&self) -> &Choice;
    /// Seats that may take it.
    fn seats(&self) -> &[Seat];
    /// Plays it for `seat` on `g` by value (the engine's fast path);
    /// false if refused (then `g` is unchanged).
    fn play(&self, g: &mut Game, seat: Seat) -> bool {
        g.apply_move(seat, self.choice()).is_ok()
    }
}

impl Pickable for ChoiceOption {
    fn choice(&self) -> &Choice {
        &self.choice
    }
    fn seats(&self) -> &[Seat] {
        &self.seats
    }
}

impl Pickable for Move {
    fn choice(&self) -> &Choice {
        &self.choice
    }
    fn seats(&self) -> &[Seat] {
        self.seats.as_slice()
    }
}

impl<T: Pickable + ?Sized> Pickable for &T {
    fn choice(&self) -> &Choice {
        (**self).choice()
    }
    fn seats(&self) -> &[Seat] {
        (**self).seats()
    }
}
