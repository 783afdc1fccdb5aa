//! The `random` policy: uniform over the options the seat may take. The
//! baseline every other policy must beat (and a check on the game's
//! balance: random play should almost never seal the Rift).

use super::{Policy, options_for};
use crate::budget::Budget;
use crate::rng::Rng;
use xodus_engine::{Seat, View};

/// Uniform random choice.
pub struct RandomPolicy {
    rng: Rng,
}

impl RandomPolicy {
    /// A random policy with its own seeded generator.
    pub fn new(seed: u64) -> RandomPolicy {
        RandomPolicy { rng: Rng::new(seed) }
    }
}

impl Policy for RandomPolicy {
    fn choose(&mut self, view: &View, seat: Seat, _budget: &Budget) -> Option<String> {
        let opts = options_for(view, seat);
        if opts.is_empty() {
            return None;
        }
        Some(opts[self.rng.below(opts.len())].id.clone())
    }

    fn name(&self) -> &'static str {
        "random"
    }
}
