//! What the agent plays a seat of any game with: a [`SeatPlayer`] (one
//! seat's policy, fed the seat's own wire state), a [`GameAi`] (a game's
//! policies by name, which `games::GAMES` lists), and [`AnyGame`], the
//! uniformly random legal pick from the wire decision that plays a game
//! the agent has no policy for. It needs no game's types.

use crate::budget::Budget;
use tabletop::pb;

/// One seat's player in one game: kept from decision to decision.
pub trait SeatPlayer: Send {
    /// The pick of `seat` on `st`, the state as that seat sees it; `seed`
    /// is the decision's own (mixed from the agent's seed, the game, the
    /// seat and the seq). `Ok(None)`: the seat has nothing the policy can
    /// pick; `Err`: the state does not read as this game's.
    fn choose(&mut self, st: &pb::GameState, seat: u8, budget: &Budget, seed: u64) -> Result<Option<String>, String>;
    /// Hears a line of table talk that `seat` heard (its own included).
    fn hear(&mut self, _seat: u8, _line: &pb::TalkLine) {}
    /// What the seat says after its last pick, if anything: at most one
    /// line a decision, and only from what the seat's view shows.
    fn remark(&mut self) -> Option<Remark> {
        None
    }
}

/// A line a seat's player says at the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Remark {
    /// Plain text, in the players' words.
    pub text: String,
    /// A signal of the game's own, packed.
    pub signal: Option<prost_types::Any>,
    /// The line states the player's plan.
    pub intent: bool,
    /// The seat it is said to (`None`: the whole table).
    pub to_seat: Option<u32>,
}

/// What a seat's player is built from.
#[derive(Clone, Copy, Debug)]
pub struct PlayerSpec<'a> {
    /// The policy's name (`--policy`).
    pub policy: &'a str,
    /// The seat's seed (the agent's, mixed with the game and the seat).
    pub seed: u64,
    /// The agent's own seed.
    pub agent_seed: u64,
    /// Threads a search may use for one decision.
    pub threads: usize,
}

/// One game's AI.
pub trait GameAi: Sync {
    /// The type name the server gives the game.
    fn game_type(&self) -> &'static str;
    /// The policy names it answers to.
    fn policies(&self) -> &'static [&'static str];
    /// Whether the named policy searches on several threads a decision
    /// (then a decision takes `--threads` cores of the machine's).
    fn searches(&self, policy: &str) -> bool;
    /// A player for one seat, or None for a policy the game has not.
    fn player(&self, spec: PlayerSpec<'_>) -> Option<Box<dyn SeatPlayer>>;
    /// `xodus-ai selfplay --game <this game>`: plays local games as the
    /// arguments say and prints the figures.
    fn selfplay(&self, args: &crate::runner::SelfplayArgs) -> anyhow::Result<()>;
    /// Advice for the seat whose own state is `st` (AskHint): its best
    /// options, best first, from that state alone; `Err` says why none.
    fn hint(&self, _st: &pb::GameState, _budget: &Budget, _seed: u64) -> Result<Vec<pb::HintOption>, String> {
        Err("this agent has no advice for this game".into())
    }
}

/// Any game: a uniformly random option of the wire decision.
pub struct AnyGame;

impl AnyGame {
    /// The name it answers to.
    pub const NAME: &'static str = "random";
}

impl SeatPlayer for AnyGame {
    fn choose(&mut self, st: &pb::GameState, seat: u8, _budget: &Budget, seed: u64) -> Result<Option<String>, String> {
        Ok(st.decision.as_ref().and_then(|d| pick(d, u32::from(seat), seed)))
    }
}

/// A random option of `decision` for `seat`, drawn from `draw` (any
/// 64-bit value, e.g. a hash of the game, seat and seq).
pub fn pick(decision: &pb::Decision, seat: u32, draw: u64) -> Option<String> {
    let mine: Vec<&pb::ChoiceOption> = decision.options.iter().filter(|o| o.seats.contains(&seat)).collect();
    if mine.is_empty() {
        return None;
    }
    let i = usize::try_from(draw % mine.len() as u64).unwrap_or(0);
    Some(mine[i].id.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(id: &str, seats: &[u32]) -> pb::ChoiceOption {
        pb::ChoiceOption { id: id.into(), seats: seats.to_vec(), ..Default::default() }
    }

    #[test]
    fn picks_only_the_seats_own_options_and_each_of_them() {
        let d = pb::Decision {
            options: vec![option("a", &[0]), option("b", &[1]), option("c", &[1])],
            ..Default::default()
        };
        let picks: std::collections::BTreeSet<String> = (0..20).filter_map(|n| pick(&d, 1, n)).collect();
        assert_eq!(picks, ["b", "c"].iter().map(|s| s.to_string()).collect());
        assert_eq!(pick(&d, 2, 0), None);
    }
}
