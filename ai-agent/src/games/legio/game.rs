//! VII Legio's entry in the agent's registry (`games::GAMES`): its
//! policies by name, and a seat player that reads the seat's wire state
//! into the engine's view and builds the policy fresh for each decision
//! from the decision's seed, so a pick depends on the view and the seed
//! alone. It says why it declines an invitation and what it brings to a
//! landing it invites to (`talk.rs`).

use super::LegioKind;
use crate::budget::Budget;
use crate::players::{GameAi, PlayerSpec, Remark, SeatPlayer};
use tabletop::pb;

/// VII Legio's AI commanders.
pub struct LegioAi;

impl GameAi for LegioAi {
    fn game_type(&self) -> &'static str {
        legio_wire::GAME_TYPE
    }

    fn policies(&self) -> &'static [&'static str] {
        &["random", "heuristic", "mcts"]
    }

    fn searches(&self, _policy: &str) -> bool {
        false
    }

    fn player(&self, spec: PlayerSpec<'_>) -> Option<Box<dyn SeatPlayer>> {
        Some(Box::new(Commander { kind: LegioKind::parse(spec.policy)?, remark: None }))
    }

    fn selfplay(&self, args: &crate::runner::SelfplayArgs) -> anyhow::Result<()> {
        super::cli::selfplay_games(args)
    }

    fn hint(&self, st: &pb::GameState, budget: &Budget, seed: u64) -> Result<Vec<pb::HintOption>, String> {
        let view = legio_wire::view(st).map_err(|e| e.to_string())?;
        Ok(super::hint::hint(&view, budget, seed))
    }
}

/// One commander: which policy plays it, and what it has to say after
/// its pick.
struct Commander {
    kind: LegioKind,
    remark: Option<Remark>,
}

impl SeatPlayer for Commander {
    fn choose(&mut self, st: &pb::GameState, seat: u8, budget: &Budget, seed: u64) -> Result<Option<String>, String> {
        let view = legio_wire::view(st).map_err(|e| e.to_string())?;
        let pick = super::build(self.kind, seed).choose(&view, budget);
        self.remark = pick.as_deref().and_then(|id| super::talk::remark(&view, seat, id));
        Ok(pick)
    }

    fn remark(&mut self) -> Option<Remark> {
        self.remark.take()
    }
}

/// A VII Legio seat's pick from its wire state: the seat's own view read
/// by `legio_wire`, played by the policy of `kind` built fresh from
/// `seed`. `Ok(None)` when the state's seat has nothing to decide.
pub fn play(
    kind: LegioKind,
    seed: u64,
    st: &pb::GameState,
    budget: &Budget,
) -> Result<Option<String>, legio_wire::WireError> {
    let view = legio_wire::view(st)?;
    Ok(super::build(kind, seed).choose(&view, budget))
}
