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
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::new(Some(200), None)
    }
}
