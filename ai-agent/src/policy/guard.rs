//! A guard against endless loops of free moves. Some options cost no
//! Action (gifts inside a Trade, fleet invitations that get declined), so
//! two captains can hand the same scrap back and forth forever if their
//! scores tie. The guard counts a policy's picks of such free moves per
//! round and bans an id picked too often in the same round (when the seat
//! has anything else). Moves that are legitimately repeated (attacks in a
//! long fight, repairs, instructions, scavenging) are never counted: an
//! earlier guard that counted every id forced fleets out of fights after
//! their fourth attack of the round.

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

    /// Records a pick (only free moves that can loop are counted).
    pub fn record(&mut self, round: u32, id: &str) {
        if !loops(id) {
            return;
        }
        if round != self.round {
            self.round = round;
            self.counts.clear();
        }
        *self.counts.entry(id.to_string()).or_insert(0) += 1;
    }
}

/// Whether an option costs nothing and can be undone by another free move:
/// gifts inside a Trade, and fleet invitations (which can be declined).
fn loops(id: &str) -> bool {
    id.starts_with("give_") || id.starts_with("invite:") || id == "decline"
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

    #[test]
    fn repeated_attacks_and_instructions_are_never_banned() {
        let mut g = LoopGuard::default();
        for _ in 0..3 * LIMIT {
            g.record(1, "attack:enemy:1");
            g.record(1, "instruction");
        }
        assert!(!g.banned(1, "attack:enemy:1"), "a long fight needs more than four attacks");
        assert!(!g.banned(1, "instruction"), "repairs take one instruction per marker");
    }
}
