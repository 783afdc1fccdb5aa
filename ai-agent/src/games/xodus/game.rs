//! X-ODUS's entry in the agent's registry (`games::GAMES`): its
//! policies by name, and a seat player that reads the seat's wire state
//! into the engine's view and keeps one policy across the seat's
//! decisions.

use super::policy::{Policy, PolicyKind, options_for};
use crate::budget::Budget;
use crate::players::{GameAi, PlayerSpec, SeatPlayer};
use tabletop::pb;

/// X-ODUS's AI captains.
pub struct XodusAi;

impl GameAi for XodusAi {
    fn game_type(&self) -> &'static str {
        xodus_wire::GAME_TYPE
    }

    fn policies(&self) -> &'static [&'static str] {
        &["random", "heuristic", "mcts"]
    }

    fn searches(&self, policy: &str) -> bool {
        PolicyKind::parse(policy) == Some(PolicyKind::Mcts)
    }

    fn player(&self, spec: PlayerSpec<'_>) -> Option<Box<dyn SeatPlayer>> {
        let policy = match PolicyKind::parse(spec.policy)? {
            PolicyKind::Mcts if spec.threads > 1 => {
                Box::new(super::policy::mcts::MctsPolicy::new(spec.agent_seed ^ 0x6d63_7473).with_threads(spec.threads))
                    as Box<dyn Policy>
            }
            kind => kind.build(spec.seed),
        };
        Some(Box::new(Captain { policy }))
    }

    fn selfplay(&self, args: &crate::runner::SelfplayArgs) -> anyhow::Result<()> {
        super::cli::selfplay_games(args)
    }
}

/// One captain: its policy, which may keep a plan between decisions.
struct Captain {
    policy: Box<dyn Policy>,
}

impl SeatPlayer for Captain {
    fn choose(&mut self, st: &pb::GameState, seat: u8, budget: &Budget, _seed: u64) -> Result<Option<String>, String> {
        let view = xodus_wire::view(st).map_err(|e| e.to_string())?;
        Ok(self.policy.choose(&view, seat, budget).or_else(|| options_for(&view, seat).first().map(|o| o.id.clone())))
    }
}
