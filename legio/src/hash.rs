//! The state hash: [`tabletop_kit::hash::state_hash`] over the config,
//! the public and hidden halves, and the generator. It is the same on
//! every machine and compiler; replays compare it bit for bit.

use crate::state::Game;

impl Game {
    /// Hash of the whole state (config, public, hidden and the generator).
    pub fn state_hash(&self) -> u64 {
        tabletop_kit::hash::state_hash(&(&self.config, &self.pb, &self.hid), &self.hid.rng)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Game, GameConfig};

    /// The hash of a fixed game, written down: a change of encoding, of a
    /// dependency or of the compiler that moves it fails here first.
    #[test]
    fn the_hash_of_a_known_state_is_pinned() {
        let mut game = Game::new(GameConfig::new(3, 7)).expect("game");
        let start = game.state_hash();
        let d = game.decision();
        game.apply(d.seat.expect("decider"), &d.options[0].id).expect("first option");
        assert_ne!(game.state_hash(), start, "a choice moves the hash");
        assert_eq!(Game::new(GameConfig::new(3, 7)).expect("game").state_hash(), start, "same config, same hash");
        assert_eq!((start, game.state_hash()), PINNED);
    }

    const PINNED: (u64, u64) = (13_303_814_186_665_178_749, 15_327_789_978_843_045_018);
}
