//! The `mcts` policy (placeholder while the heuristic settles).

use super::{Policy, heuristic::HeuristicPolicy};
use crate::budget::Budget;
use xodus_engine::{Seat, View};

/// Determinized Monte Carlo tree search.
pub struct MctsPolicy {
    inner: HeuristicPolicy,
}

impl MctsPolicy {
    /// A search policy seeded with `seed`.
    pub fn new(seed: u64) -> MctsPolicy {
        MctsPolicy { inner: HeuristicPolicy::new(seed) }
    }
}

impl Policy for MctsPolicy {
    fn choose(&mut self, view: &View, seat: Seat, budget: &Budget) -> Option<String> {
        self.inner.choose(view, seat, budget)
    }

    fn name(&self) -> &'static str {
        "mcts"
    }
}
