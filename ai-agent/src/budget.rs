//! How much thinking a policy may do for one decision: a number of search
//! iterations, a wall-clock limit, or both (whichever ends first). With
//! iterations only, search is deterministic for a seed.

use std::time::{Duration, Instant};

/// Thinking budget for one decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Search iterations (playouts) at most.
    pub iterations: Option<u32>,
    /// Wall-clock milliseconds at most.
    pub think_ms: Option<u64>,
}

impl Budget {
    /// A budget; with neither limit, policies use their default.
    pub fn new(iterations: Option<u32>, think_ms: Option<u64>) -> Budget {
        Budget { iterations, think_ms }
    }

    /// The deadline from `start`, if a time limit is set.
    pub fn deadline(&self, start: Instant) -> Option<Instant> {
        self.think_ms.map(|ms| start + Duration::from_millis(ms))
    }

    /// What is left for a search once `spent` is gone and as much again
    /// is kept back for the work after it: the time limit shrinks by twice
    /// `spent` (never below 1 ms); the iterations stay.
    pub fn after(&self, spent: Duration) -> Budget {
        let spent_ms = u64::try_from(spent.as_millis()).unwrap_or(u64::MAX);
        let think_ms = self.think_ms.map(|ms| ms.saturating_sub(spent_ms.saturating_mul(2)).max(1));
        Budget { iterations: self.iterations, think_ms }
    }
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::new(Some(200), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_left_keeps_the_iterations_and_twice_the_time_spent_back() {
        let b = Budget::new(Some(24), Some(500));
        assert_eq!(b.after(Duration::from_millis(40)), Budget::new(Some(24), Some(420)));
        assert_eq!(b.after(Duration::from_millis(300)), Budget::new(Some(24), Some(1)), "never below 1 ms");
        assert_eq!(Budget::new(Some(24), None).after(Duration::from_secs(9)), Budget::new(Some(24), None));
    }
}
