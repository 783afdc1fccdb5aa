//! A state hash that is the same on every machine and with every compiler:
//! FNV-1a over the canonical encoding of the state ([`crate::canon`]), then
//! the generator's exact position. Replays compare it bit for bit.

use crate::state::Game;

/// 64-bit FNV-1a, fed as a byte sink.
struct Fnv(u64);

impl crate::canon::Sink for Fnv {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

impl Game {
    /// Hash of the whole state (config, public, hidden and the generator).
    pub fn state_hash(&self) -> u64 {
        use crate::canon::Sink;
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        // Every type in the state has a known length and shape, so the
        // encoding cannot fail (the pinned test would see it if it did).
        let _ = crate::canon::encode(&mut h, &(&self.config, &self.pb, &self.hid));
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
