//! A state hash that is the same on every machine and with every compiler:
//! FNV-1a over the canonical encoding of the state ([`crate::canon`]: the
//! serde shape as fixed-width, length-prefixed bytes), never over
//! `std::hash`, whose byte stream the standard library does not promise to
//! keep; then the random generator's exact position as fixed-width
//! little-endian bytes. Replays compare it bit for bit, so it must change
//! only when the state does. Each engine pins the hash of one of its games
//! in a test.

use crate::canon::{Sink, encode};
use crate::rng::GameRng;
use serde::Serialize;

/// 64-bit FNV-1a, fed as a byte sink.
struct Fnv(u64);

impl Sink for Fnv {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// The hash of `state` (every part of it the hash must cover) and of the
/// generator `rng` it carries.
pub fn state_hash<T: Serialize + ?Sized>(state: &T, rng: &GameRng) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    // Game states have a known length and shape, so encoding them cannot
    // fail (each engine's pinned test would see it if it did).
    let _ = encode(&mut h, state);
    let (word_pos, seed, stream) = rng.fingerprint();
    h.feed(&word_pos.to_le_bytes());
    h.feed(&seed);
    h.feed(&stream.to_le_bytes());
    h.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_follows_the_state_and_the_generator() {
        let rng = GameRng::new(1);
        let a = state_hash(&(1u8, "x", vec![2u16, 3]), &rng);
        assert_eq!(a, state_hash(&(1u8, "x", vec![2u16, 3]), &rng.clone()));
        assert_ne!(a, state_hash(&(1u8, "x", vec![3u16, 2]), &rng));
        let mut moved = rng.clone();
        moved.below(6);
        assert_ne!(a, state_hash(&(1u8, "x", vec![2u16, 3]), &moved));
    }
}
