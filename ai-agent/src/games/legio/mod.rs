//! VII Legio commanders: policies that play one seat of a VII Legio game
//! from that seat's [`View`] alone, each for its own result.
//!
//! A policy gets the seat's view (the public board, the sizes of what is
//! hidden, the seat's own secrets and, for the decider, the options) and
//! nothing else; a search builds full games with `Game::from_view`, which
//! redraws everything the seat cannot see. `eval` values a game for one
//! seat (its rank first, the 10-PX gate included, then its margin),
//! `heuristic` picks by a one-step look-ahead over a few determinizations
//! with the game's scoring knowledge as priors, `search` compares the
//! heuristic's best options on shared determinizations played on by the
//! heuristic, `selfplay` measures them against each other.

pub mod cli;
pub mod eval;
pub mod game;
pub mod heuristic;
pub mod hint;
pub mod search;
pub mod selfplay;
pub mod talk;

use crate::budget::Budget;
use crate::rng::Rng;
use legio_engine::{ChoiceOption, Seat, View, Viewer};

/// Picks an option for the seat whose view it is given.
pub trait LegioPolicy: Send {
    /// The id of a legal option of `view.decision`, or `None` when the
    /// view's seat has nothing to decide.
    fn choose(&mut self, view: &View, budget: &Budget) -> Option<String>;

    /// Short name, as on the command line.
    fn name(&self) -> &'static str;
}

/// VII Legio's policies, by their command-line names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LegioKind {
    /// Uniform over the seat's options.
    Random,
    /// The one-step look-ahead over determinizations (`heuristic`).
    Heuristic,
    /// The determinized search (`search`; "mcts" on the command line, the
    /// name the agent's other game uses for its search).
    Search,
}

impl LegioKind {
    /// Parses a command-line name.
    pub fn parse(s: &str) -> Option<LegioKind> {
        match s {
            "random" => Some(LegioKind::Random),
            "heuristic" => Some(LegioKind::Heuristic),
            "mcts" | "search" => Some(LegioKind::Search),
            _ => None,
        }
    }

    /// Command-line name.
    pub fn as_str(self) -> &'static str {
        match self {
            LegioKind::Random => "random",
            LegioKind::Heuristic => "heuristic",
            LegioKind::Search => "mcts",
        }
    }
}

/// The VII Legio policy of a kind, seeded with `seed`.
pub fn build(kind: LegioKind, seed: u64) -> Box<dyn LegioPolicy> {
    match kind {
        LegioKind::Random => Box::new(RandomLegio { rng: Rng::new(seed) }),
        LegioKind::Heuristic => Box::new(heuristic::Heuristic::new(seed)),
        LegioKind::Search => Box::new(search::Search::new(seed)),
    }
}

/// The seat the view belongs to, and its options, when it decides.
pub fn my_options(view: &View) -> Option<(Seat, &[ChoiceOption])> {
    let Viewer::Seat(me) = view.viewer else { return None };
    let d = view.decision.as_ref()?;
    if d.seat != Some(me) || d.options.is_empty() {
        return None;
    }
    Some((me, &d.options))
}

/// Uniform over the seat's options: the floor every policy must beat.
pub struct RandomLegio {
    rng: Rng,
}

impl LegioPolicy for RandomLegio {
    fn choose(&mut self, view: &View, _budget: &Budget) -> Option<String> {
        let (_, opts) = my_options(view)?;
        Some(opts[self.rng.below(opts.len())].id.clone())
    }

    fn name(&self) -> &'static str {
        "random"
    }
}
