//! Policies: given what one seat sees, pick one of the options that seat
//! may take. Every policy works over the enumerated options of the pending
//! decision and never over a fixed list of moves, so new cards, mods and
//! modules in the engine reach the AI without code changes here.

pub mod endgame;
pub mod guard;
pub mod heuristic;
pub mod march;
pub mod mcts;
pub mod pickable;
pub mod random;

use crate::budget::Budget;
use xodus_engine::{ChoiceOption, Seat, View};

/// Picks an option for a seat from its view.
pub trait Policy: Send {
    /// The id of a legal option of `view.decision` that `seat` may take,
    /// or `None` when the seat has nothing to decide.
    fn choose(&mut self, view: &View, seat: Seat, budget: &Budget) -> Option<String>;

    /// Short name, as on the command line.
    fn name(&self) -> &'static str;
}

/// Which policy to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyKind {
    /// Uniform over legal options.
    Random,
    /// Hand-written play scored by a one-step look-ahead.
    Heuristic,
    /// Determinized Monte Carlo tree search.
    Mcts,
}

impl PolicyKind {
    /// Parses a command-line name.
    pub fn parse(s: &str) -> Option<PolicyKind> {
        match s {
            "random" => Some(PolicyKind::Random),
            "heuristic" => Some(PolicyKind::Heuristic),
            "mcts" => Some(PolicyKind::Mcts),
            _ => None,
        }
    }

    /// Command-line name.
    pub fn as_str(self) -> &'static str {
        match self {
            PolicyKind::Random => "random",
            PolicyKind::Heuristic => "heuristic",
            PolicyKind::Mcts => "mcts",
        }
    }

    /// A fresh policy seeded with `seed`.
    pub fn build(self, seed: u64) -> Box<dyn Policy> {
        match self {
            PolicyKind::Random => Box::new(random::RandomPolicy::new(seed)),
            PolicyKind::Heuristic => Box::new(heuristic::HeuristicPolicy::new(seed)),
            PolicyKind::Mcts => Box::new(mcts::MctsPolicy::new(seed)),
        }
    }
}

/// The options of the pending decision that `seat` may take.
pub fn options_for(view: &View, seat: Seat) -> Vec<&ChoiceOption> {
    view.decision.options.iter().filter(|o| o.seats.contains(&seat)).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use xodus_engine::{Difficulty, Game, GameConfig, Viewer};

    /// Views met along a random game (every 7th decision, up to `n`).
    pub(crate) fn sample_views(seed: u64, n: usize) -> Vec<(View, Seat)> {
        let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("game");
        let mut pick = crate::rng::Rng::new(seed);
        let mut out = Vec::new();
        let mut step = 0;
        while g.outcome().is_none() && out.len() < n {
            let d = g.decision();
            let o = &d.options[pick.below(d.options.len())];
            let seat = o.seats[0];
            if step % 7 == 0 {
                out.push((g.view(Viewer::Seat(seat)), seat));
            }
            let id = o.id.clone();
            g.apply(seat, &id).expect("offered option");
            step += 1;
        }
        out
    }

    #[test]
    fn every_policy_returns_a_legal_id_for_its_seat() {
        let budget = Budget::new(Some(6), None);
        for kind in [PolicyKind::Random, PolicyKind::Heuristic, PolicyKind::Mcts] {
            let mut p = kind.build(5);
            for (view, seat) in sample_views(21, 25) {
                let id = p.choose(&view, seat, &budget).expect("the seat has a decision");
                assert!(options_for(&view, seat).iter().any(|o| o.id == id), "{} picked illegal {id}", kind.as_str());
            }
        }
    }

    #[test]
    fn policies_are_deterministic_for_a_seed() {
        let budget = Budget::new(Some(8), None);
        let views = sample_views(33, 12);
        for kind in [PolicyKind::Random, PolicyKind::Heuristic, PolicyKind::Mcts] {
            let (mut a, mut b) = (kind.build(9), kind.build(9));
            for (view, seat) in &views {
                assert_eq!(a.choose(view, *seat, &budget), b.choose(view, *seat, &budget), "{}", kind.as_str());
            }
        }
    }

    #[test]
    fn a_seat_with_nothing_to_decide_gets_none() {
        let (view, seat) = sample_views(4, 1).remove(0);
        let other = (0..4u8).find(|s| *s != seat && !view.decision.deciders.contains(s));
        if let Some(other) = other {
            for kind in [PolicyKind::Random, PolicyKind::Heuristic, PolicyKind::Mcts] {
                assert_eq!(kind.build(1).choose(&view, other, &Budget::default()), None);
            }
        }
    }

    #[test]
    fn parallel_search_is_deterministic_for_a_seed() {
        let budget = Budget::new(Some(12), None);
        for (view, seat) in sample_views(8, 6) {
            let roots: Vec<String> = options_for(&view, seat).iter().map(|o| o.id.clone()).collect();
            let a = mcts::search_parallel(&view, seat, &budget, 77, 2, &roots);
            let b = mcts::search_parallel(&view, seat, &budget, 77, 2, &roots);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn paired_search_gives_the_same_rewards_on_one_thread_or_two() {
        for (view, seat) in sample_views(12, 4) {
            let roots: Vec<String> = options_for(&view, seat).iter().take(3).map(|o| o.id.clone()).collect();
            let search =
                mcts::Paired { view: &view, seat, roots: &roots, seed: 5, horizon: 1, value: None, marches: &[] };
            let (one, two) = (search.run(3, None, 1), search.run(3, None, 2));
            assert_eq!(one.len(), 3);
            assert_eq!(one, two);
        }
    }

    #[test]
    fn a_spent_deadline_leaves_no_sample_and_the_favourite_is_played() {
        let (view, seat) = sample_views(12, 3).remove(2);
        let roots: Vec<String> = options_for(&view, seat).iter().take(3).map(|o| o.id.clone()).collect();
        let search = mcts::Paired { view: &view, seat, roots: &roots, seed: 5, horizon: 1, value: None, marches: &[] };
        let rows = search.run(50, Some(std::time::Instant::now()), 2);
        assert!(rows.is_empty());
        assert_eq!(mcts::paired_pick(&rows, 0.08, 1.0), 0);
    }

    /// Runs `f` on a thread and waits up to a minute for it: the liveness
    /// check of a search that used to run on forever (not a timing).
    fn returns<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(std::time::Duration::from_secs(60)).expect("the time-limited search never returned")
    }

    /// A decision of a random game where `seat` has at least two options
    /// and every one of them ends the game (its last decision).
    fn a_last_decision() -> (View, Seat) {
        for seed in 1..400 {
            let mut g = Game::new(GameConfig::random(seed, 3, Difficulty::Casual)).expect("game");
            let mut pick = crate::rng::Rng::new(seed);
            while g.outcome().is_none() {
                let d = g.decision();
                let seat = d.options[0].seats[0];
                let mine: Vec<&str> =
                    d.options.iter().filter(|o| o.seats.contains(&seat)).map(|o| o.id.as_str()).collect();
                let ends = |id: &str| {
                    let mut next = g.clone();
                    next.apply(seat, id).is_ok() && next.outcome().is_some()
                };
                if mine.len() > 1 && mine.iter().all(|id| ends(id)) {
                    return (g.view(Viewer::Seat(seat)), seat);
                }
                let id = d.options[pick.below(d.options.len())].id.clone();
                let by = d.options.iter().find(|o| o.id == id).map_or(seat, |o| o.seats[0]);
                g.apply(by, &id).expect("offered option");
            }
        }
        panic!("no random game of seeds 1..400 ends on a decision where every option ends it");
    }

    /// Seen in self-play at `--think-ms 500`: on the last decision of a
    /// game every candidate's sample ended at once, never met the deadline,
    /// and the paired search ran on until the process held 16 GB.
    #[test]
    fn a_time_limited_search_returns_when_every_option_ends_the_game() {
        let (view, seat) = a_last_decision();
        let picked = returns(move || {
            let mut p = mcts::MctsPolicy::new(9);
            let id = p.choose(&view, seat, &Budget::new(None, Some(30)));
            (id, view)
        });
        let (id, view) = picked;
        let id = id.expect("the seat has a decision");
        assert!(options_for(&view, seat).iter().any(|o| o.id == id));
    }

    #[test]
    fn a_time_limited_paired_search_stops_at_the_deadline_when_no_candidate_plays() {
        let (view, seat) = sample_views(12, 3).remove(2);
        let rows = returns(move || {
            // Candidates the engine refuses: each sample returns at once.
            let roots = vec!["no-such-option".to_string(), "nor-this-one".to_string()];
            let search =
                mcts::Paired { view: &view, seat, roots: &roots, seed: 5, horizon: 1, value: None, marches: &[] };
            let deadline = std::time::Instant::now() + std::time::Duration::from_millis(30);
            search.run(u32::MAX, Some(deadline), 1)
        });
        assert!(rows.iter().all(|r| r.iter().all(|v| *v == f64::NEG_INFINITY)));
    }

    #[test]
    fn view_round_trips_through_json() {
        let g = Game::new(GameConfig::random(3, 4, Difficulty::Casual)).expect("game");
        let json = serde_json::to_string(&g.view(Viewer::Seat(0))).expect("serializes");
        let back: Result<View, _> = serde_json::from_str(&json);
        assert!(back.is_ok(), "{:?}", back.err());
    }
}
