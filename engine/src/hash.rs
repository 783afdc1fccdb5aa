//! A state hash that is the same on every machine and with every compiler:
//! FNV-1a over a canonical encoding of the state ([`crate::canon`]: the
//! serde shape of the state as fixed-width, length-prefixed bytes), never
//! over `std::hash`, whose byte stream the standard library does not
//! promise to keep. The exact position of the random generator follows as
//! fixed-width little-endian bytes. Replays compare it bit for bit, so it
//! must only change when the state does.

use crate::state::Game;

/// 64-bit FNV-1a, fed as a byte sink.
struct Fnv(u64);

impl Fnv {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

impl crate::canon::Sink for Fnv {
    fn feed(&mut self, bytes: &[u8]) {
        Fnv::feed(self, bytes);
    }
}

impl Game {
    /// Hash of the whole state (config, public, hidden and the generator).
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        // The state's types all have a known length and shape, so encoding
        // them cannot fail (the pinned test would see it if it did).
        let _ = crate::canon::encode(&mut h, &(&self.config.ships, self.config.seed, &self.pb, &self.hid));
        let (word_pos, seed, stream) = self.hid.rng.fingerprint();
        h.feed(&word_pos.to_le_bytes());
        h.feed(&seed);
        h.feed(&stream.to_le_bytes());
        h.0
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
