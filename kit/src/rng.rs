//! The game's only source of randomness: a ChaCha8 generator seeded from
//! the game's seed and carried inside the state, so that replaying the
//! same choices reproduces every shuffle, die and d10 roll on any machine.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// Seeded generator held by the game state.
#[derive(Clone, Debug)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    /// A generator for a seed.
    pub fn new(seed: u64) -> GameRng {
        GameRng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Uniform integer in `0..n` (n > 0), without modulo bias.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let n = n.max(1);
        let zone = u32::MAX - (u32::MAX % n);
        loop {
            let x = self.0.next_u32();
            if x < zone {
                return x % n;
            }
        }
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A fresh 64-bit value (used to derive sub-seeds).
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Feeds the generator's exact position into a hasher.
    pub fn fingerprint(&self) -> (u128, [u8; 32], u64) {
        (self.0.get_word_pos(), self.0.get_seed(), self.0.get_stream())
    }
}

impl GameRng {
    /// One roll of the ten-sided die: 1..=10 (the die's 0 reads as 10).
    pub fn d10(&mut self) -> u8 {
        self.below(10) as u8 + 1
    }
}

impl Default for GameRng {
    fn default() -> GameRng {
        GameRng::new(0)
    }
}
