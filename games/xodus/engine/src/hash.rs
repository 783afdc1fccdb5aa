//! The state hash: [`tabletop_kit::hash::state_hash`] over the config's
//! ships and seed, the public and hidden halves, and the generator. It is
//! the same on every machine and compiler; replays compare it bit for bit.

use crate::state::Game;

impl Game {
    /// Hash of the whole state (config, public, hidden and the generator).
    pub fn state_hash(&self) -> u64 {
        tabletop_kit::hash::state_hash(&(&self.config.ships, self.config.seed, &self.pb, &self.hid), &self.hid.rng)
    }

    /// Hash of the hidden half alone (every deck, stack and face-down
    /// order, and the generator's position). A choice that changes it drew,
    /// shuffled or rolled something, even when its events say nothing (a
    /// probe shows the drawn tile only in the next decision): taking such a
    /// choice back would let a player see what is hidden and try again, so
    /// it is never undoable.
    pub fn hidden_hash(&self) -> u64 {
        tabletop_kit::hash::state_hash(&self.hid, &self.hid.rng)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Game, GameConfig};

    /// The hash of a fixed game, written down: a change of encoding, of a
    /// dependency or of the compiler that moves it fails here first.
    #[test]
    fn the_hash_of_a_known_state_is_pinned() {
        let config = GameConfig {
            legacy_reinforcements: Some(false),
            rules_revision: Some(2),
            ..GameConfig::random(7, 3, crate::Difficulty::Casual)
        };
        let mut game = Game::new(config).expect("game");
        let start = game.state_hash();
        let id = game.decision().options[0].id.clone();
        let seat = game.decision().options[0].seats[0];
        game.apply(seat, &id).expect("first option");
        assert_ne!(game.state_hash(), start, "a choice moves the hash");
        assert_eq!(Game::new(game.config().clone()).expect("game").state_hash(), start, "same config, same hash");
        assert_eq!((start, game.state_hash()), PINNED);
    }

    const PINNED: (u64, u64) = (6_307_471_196_124_963_432, 6_871_803_365_544_788_218);
}
