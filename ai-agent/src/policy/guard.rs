//! A guard against endless loops of free moves. Some options cost no
//! Action (gifts inside a Trade, fleet invitations that get declined), so
//! two captains can hand the same scrap back and forth forever if their
//! scores tie. The guard counts a policy's picks per round and bans an id
//! picked too often in the same round (when the seat has anything else).

use std::collections::HashMap;

/// Picks of the same id per round before it is banned.
const LIMIT: u32 = 4;

/// Per-round pick counts of one policy instance.
#[derive(Default, Debug)]
pub struct LoopGuard {
    round: u32,
    counts: HashMap<String, u32>,
}

impl LoopGuard {
    /// Whether `id` is banned in `round`.
    pub fn banned(&self, round: u32, id: &str) -> bool {
        self.round == round && self.counts.get(id).is_some_and(|&n| n >= LIMIT)
    }

    /// Records a pick.
    pub fn record(&mut self, round: u32, id: &str) {
        if round != self.round {
            self.round = round;
            self.counts.clear();
        }
        *self.counts.entry(id.to_string()).or_insert(0) += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bans_after_the_limit_and_forgets_each_round() {
        let mut g = LoopGuard::default();
        for _ in 0..LIMIT {
            assert!(!g.banned(1, "give_scraps:0:1:1"));
            g.record(1, "give_scraps:0:1:1");
        }
        assert!(g.banned(1, "give_scraps:0:1:1"));
        assert!(!g.banned(1, "end_trade"));
        g.record(2, "end_trade");
        assert!(!g.banned(2, "give_scraps:0:1:1"));
    }
}
