//! The games the agent plays with policies of their own: one [`GameAi`]
//! each in [`GAMES`], the one list a new game's AI is added to. A game
//! with no entry, or a policy name the game has not, is played by
//! [`AnyGame`]'s random legal picks. Each game's folder here holds all the
//! agent knows of it.

pub mod legio;
pub mod xodus;

use crate::players::{AnyGame, GameAi, PlayerSpec, SeatPlayer};
use crate::runner::SelfplayArgs;
use tabletop::pb;

/// Every game with policies of its own.
pub static GAMES: &[&dyn GameAi] = &[&xodus::game::XodusAi, &legio::game::LegioAi];

/// The game `xodus-ai selfplay` plays when none is named.
pub const DEFAULT: &str = xodus_wire::GAME_TYPE;

/// The subcommands games add to `xodus-ai`'s command line.
#[derive(clap::Subcommand, Debug)]
pub enum GameCommand {
    /// X-ODUS: play one local game and print every decision (for
    /// debugging policies).
    Trace(xodus::cli::TraceArgs),
    /// X-ODUS: fit the search's value model on self-play games and report
    /// how well it tells won games from lost ones.
    FitValue(xodus::cli::FitArgs),
}

/// Runs a game's own subcommand.
pub fn run_command(cmd: &GameCommand) -> anyhow::Result<()> {
    match cmd {
        GameCommand::Trace(args) => xodus::cli::trace(args),
        GameCommand::FitValue(args) => xodus::cli::fit(args),
    }
}

/// Advice for the seat whose own state is `st`, by its game's AI.
pub fn hint(st: &pb::GameState, budget: &crate::budget::Budget, seed: u64) -> Result<Vec<pb::HintOption>, String> {
    match game(&st.game_type) {
        Some(g) => g.hint(st, budget, seed),
        None => Err(format!("this agent has no advice for game type '{}'", st.game_type)),
    }
}

/// `xodus-ai selfplay`: the named game's self-play.
pub fn selfplay(args: &SelfplayArgs) -> anyhow::Result<()> {
    let names: Vec<&str> = GAMES.iter().map(|g| g.game_type()).collect();
    let name = args.game.as_deref().unwrap_or(DEFAULT);
    match game(name) {
        Some(g) => g.selfplay(args),
        None => anyhow::bail!("unknown game '{name}' ({})", names.join(", ")),
    }
}

/// The entry of a game type, if the agent has policies for it.
pub fn game(game_type: &str) -> Option<&'static dyn GameAi> {
    GAMES.iter().copied().find(|g| g.game_type() == game_type)
}

/// Whether some game answers to the policy name.
pub fn known_policy(name: &str) -> bool {
    name == AnyGame::NAME || GAMES.iter().any(|g| g.policies().contains(&name))
}

/// Every policy name, for help and errors: "random, heuristic, mcts".
pub fn policy_names() -> String {
    let mut names: Vec<&str> = vec![AnyGame::NAME];
    for g in GAMES {
        for p in g.policies() {
            if !names.contains(p) {
                names.push(p);
            }
        }
    }
    names.join(", ")
}

/// Whether the named policy searches on several threads in any game.
pub fn searches(policy: &str) -> bool {
    GAMES.iter().any(|g| g.searches(policy))
}

/// The player of one seat of a game of `game_type`: the game's own for the
/// policy, else a random legal pick.
pub fn player_for(game_type: &str, spec: PlayerSpec<'_>) -> Box<dyn SeatPlayer> {
    match game(game_type).and_then(|g| g.player(spec)) {
        Some(p) => p,
        None => {
            if spec.policy != AnyGame::NAME {
                tracing::info!(game_type, policy = spec.policy, "no such policy for this game: random legal picks");
            }
            Box::new(AnyGame)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use tabletop::pb;

    fn spec(policy: &str) -> PlayerSpec<'_> {
        PlayerSpec { policy, seed: 1, agent_seed: 2, threads: 1 }
    }

    #[test]
    fn each_game_type_finds_its_entry_and_unknown_ones_none() {
        assert_eq!(game("xodus").map(|g| g.game_type()), Some("xodus"));
        assert_eq!(game("legio").map(|g| g.game_type()), Some("legio"));
        assert!(game("high_card").is_none());
        assert!(game("").is_none());
        for g in GAMES {
            for p in g.policies() {
                assert!(g.player(spec(p)).is_some(), "{} names policy {p} but builds none", g.game_type());
                assert!(known_policy(p));
            }
            assert!(g.player(spec("no-such")).is_none());
        }
        assert!(!known_policy("no-such"));
        assert_eq!(policy_names(), "random, heuristic, mcts");
        assert!(searches("mcts") && !searches("heuristic"));
    }

    #[test]
    fn a_game_without_policies_is_played_by_random_legal_picks() {
        let option = |id: &str| pb::ChoiceOption { id: id.into(), seats: vec![1], ..Default::default() };
        let st = pb::GameState {
            game_type: "high_card".into(),
            decision: Some(pb::Decision { options: vec![option("draw"), option("stand")], ..Default::default() }),
            ..Default::default()
        };
        let mut p = player_for("high_card", spec("mcts"));
        let id = p.choose(&st, 1, &Budget::default(), 7).expect("reads any state");
        assert!(matches!(id.as_deref(), Some("draw" | "stand")), "{id:?}");
        assert_eq!(p.choose(&st, 0, &Budget::default(), 7), Ok(None), "seat 0 has no option");
    }
}
