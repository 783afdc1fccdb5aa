//! Policies: given what one seat sees, pick one of the options that seat
//! may take. Every policy works over the enumerated options of the pending
//! decision and never over a fixed list of moves, so new cards, mods and
//! modules in the engine reach the AI without code changes here.

pub mod heuristic;
pub mod mcts;
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
mod tests {
    use super::*;
    use xodus_engine::{Difficulty, Game, GameConfig, Viewer};

    #[test]
    fn view_round_trips_through_json() {
        let g = Game::new(GameConfig::random(3, 4, Difficulty::Casual)).expect("game");
        let json = serde_json::to_string(&g.view(Viewer::Seat(0))).expect("serializes");
        let back: Result<View, _> = serde_json::from_str(&json);
        assert!(back.is_ok(), "{:?}", back.err());
    }
}
