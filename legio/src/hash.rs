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
