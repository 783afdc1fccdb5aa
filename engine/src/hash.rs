//! A state hash that is the same on every machine: FNV-1a over the
//! derived `Hash` of the public half, the hidden orders and the exact
//! position of the random generator. Replays compare it bit for bit.

use crate::state::Game;
use std::hash::{Hash, Hasher};

/// 64-bit FNV-1a.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.write(&(n as u64).to_le_bytes());
    }
}

impl Game {
    /// Hash of the whole state (public, hidden and the generator).
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        self.config.ships.hash(&mut h);
        self.config.seed.hash(&mut h);
        self.pb.hash(&mut h);
        self.hid.stack.hash(&mut h);
        self.hid.enemy_deck.hash(&mut h);
        self.hid.enemy_reserve.hash(&mut h);
        self.hid.mat_avatars.hash(&mut h);
        self.hid.signal_cards.hash(&mut h);
        self.hid.damaged_deck.hash(&mut h);
        self.hid.exploration_deck.hash(&mut h);
        self.hid.module_deck.hash(&mut h);
        self.hid.precursor_deck.hash(&mut h);
        self.hid.ally_deck.hash(&mut h);
        self.hid.spare_allies.hash(&mut h);
        self.hid.rng.fingerprint().hash(&mut h);
        h.finish()
    }
}
