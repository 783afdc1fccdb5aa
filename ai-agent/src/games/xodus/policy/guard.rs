//! A guard against endless loops of free moves. Some options cost no
//! Action (gifts inside a Trade, fleet invitations that get declined), so
//! two captains can hand the same scrap back and forth forever if their
//! scores tie. The guard counts a policy's picks of such free moves per
//! round and bans an id picked too often in the same round (when the seat
//! has anything else). Moves that are legitimately repeated (attacks in a
//! long fight, repairs, instructions, scavenging) are never counted: an
//! earlier guard that counted every id forced fleets out of fights after
//! their fourth attack of the round.
//!
//! It also bans jumping straight back to the system a ship just left when
//! nothing was done in between: two look-aheads on fresh samples can each
//! rate the other system a little better, and a captain then spent whole
//! turns shuttling between two systems (seed 5023, rounds 10 to 16).

use std::collections::HashMap;
use xodus_engine::{Choice, ChoiceOption, DecisionKind, Seat, View};

/// Picks of the same id per round before it is banned.
const LIMIT: u32 = 4;

/// Per-round pick counts of one policy instance.
#[derive(Default, Debug)]
pub struct LoopGuard {
    round: u32,
    counts: HashMap<String, u32>,
    back: Option<Back>,
}

/// The jump back a seat may not make: the option id that would return it
/// to where it came from, while it stands where it jumped to.
#[derive(Debug)]
struct Back {
    round: u32,
    seat: Seat,
    at: xodus_engine::Hex,
    id: String,
}

impl LoopGuard {
    /// Whether `id` is banned in `round`.
    pub fn banned(&self, round: u32, id: &str) -> bool {
        self.round == round && self.counts.get(id).is_some_and(|&n| n >= LIMIT)
    }

    /// Whether taking `id` would jump `seat` straight back to the system
    /// it left, with nothing done since.
    pub fn doubles_back(&self, view: &View, seat: Seat, id: &str) -> bool {
        let here = view.public.ships.get(usize::from(seat)).map(|s| s.hex);
        self.back.as_ref().is_some_and(|b| b.round == view.round && b.seat == seat && Some(b.at) == here && b.id == id)
    }

    /// Whether `id` is banned for `seat` now, by either rule.
    pub fn refuses(&self, view: &View, seat: Seat, id: &str) -> bool {
        self.banned(view.round, id) || self.doubles_back(view, seat, id)
    }

    /// Records the option `seat` took on `view`: counts free moves, and
    /// remembers a plain jump so the way back is refused until the seat
    /// decides anything other than the jump's Detection Roll.
    pub fn record_pick(&mut self, view: &View, seat: Seat, option: &ChoiceOption) {
        self.record(view.round, &option.id);
        if let Choice::Jump { hex } = option.choice {
            let from = view.public.ships.get(usize::from(seat)).map(|s| s.hex);
            self.back = from.map(|from| Back { round: view.round, seat, at: hex, id: Choice::Jump { hex: from }.id() });
        } else if view.decision.kind != DecisionKind::Detection {
            // Anything but the jump's own Detection Roll: an Action, or a
            // fight the jump ran into (fleeing back the way it came is fair).
            self.back = None;
        }
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
    use xodus_engine::{Difficulty, Game, GameConfig, Viewer};

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

    /// A game at a captain's first Action decision that offers a plain jump
    /// whose Detection Roll (if any) is out of the way after it.
    fn at_a_jump() -> (Game, Seat, ChoiceOption) {
        for seed in 0..50 {
            let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("game");
            for _ in 0..200 {
                let d = g.decision();
                let Some(&seat) = d.deciders.first() else { break };
                if d.kind == DecisionKind::Action
                    && let Some(jump) = d.options.iter().find(|o| matches!(o.choice, Choice::Jump { .. }))
                {
                    return (g.clone(), seat, jump.clone());
                }
                let id = d.options[0].id.clone();
                g.apply(seat, &id).expect("legal");
            }
        }
        panic!("no jump offered in 50 games");
    }

    #[test]
    fn a_jump_straight_back_is_refused_until_something_else_is_done() {
        let (mut g, seat, jump) = at_a_jump();
        let before = g.view(Viewer::Seat(seat));
        let from = before.public.ships[usize::from(seat)].hex;
        let back = Choice::Jump { hex: from }.id();
        let mut guard = LoopGuard::default();
        guard.record_pick(&before, seat, &jump);
        g.apply(seat, &jump.id).expect("jump");
        // Roll any Detection the jump asked for.
        while g.decision().kind != DecisionKind::Action && g.outcome().is_none() {
            let d = g.decision();
            let id = d.options[0].id.clone();
            g.apply(d.deciders[0], &id).expect("legal");
        }
        let after = g.view(Viewer::Seat(seat));
        assert!(guard.doubles_back(&after, seat, &back), "the way back is refused");
        assert!(guard.refuses(&after, seat, &back));
        assert!(!guard.doubles_back(&after, seat, "end_turn"), "other options stay");
        assert!(!guard.doubles_back(&after, (seat + 1) % 4, &back), "only for the seat that jumped");
        let other = after
            .decision
            .options
            .iter()
            .find(|o| !matches!(o.choice, Choice::Jump { .. }) && o.seats.contains(&seat))
            .expect("something else to do");
        guard.record_pick(&after, seat, other);
        assert!(!guard.doubles_back(&after, seat, &back), "after another Action the way back is open again");
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
