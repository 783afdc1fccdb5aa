//! Which policies play a game, chosen by the game's type
//! (`GameState.game_type`): one entry per game the agent has policies of
//! its own for. X-ODUS seats are played by the crate's X-ODUS policies,
//! VII Legio seats by `crate::legio`'s, under the same command-line names
//! (random, heuristic, mcts); a game with no entry is played by a legal
//! random pick from the wire decision (`any_game`). Adding a game's AI is
//! one entry here and one arm where the agent thinks.

use crate::budget::Budget;
use crate::policy::PolicyKind;
use xodus::pb;

/// The games the agent has policies of its own for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// X-ODUS: the co-operative crew (`crate::policy`).
    Xodus,
    /// VII Legio: rival commanders (`crate::legio`).
    Legio,
}

/// One game's entry.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The type name the server gives the game.
    pub game_type: &'static str,
    /// Which policies play it.
    pub kind: GameKind,
    /// The policy names it answers to.
    pub policies: &'static [&'static str],
}

/// Every game with policies of its own.
pub const ENTRIES: &[Entry] = &[
    Entry { game_type: xodus_wire::GAME_TYPE, kind: GameKind::Xodus, policies: &["random", "heuristic", "mcts"] },
    Entry { game_type: legio_wire::GAME_TYPE, kind: GameKind::Legio, policies: &["random", "heuristic", "mcts"] },
];

/// The entry of a game type, if the agent has policies for it.
pub fn entry(game_type: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|e| e.game_type == game_type)
}

/// The kind of game a state belongs to; `None` for a game the agent has
/// no policy of its own for (played at random) or a state without a type.
pub fn kind_of(st: &pb::GameState) -> Option<GameKind> {
    entry(&st.game_type).map(|e| e.kind)
}

/// A VII Legio seat's pick from its wire state: the seat's own view read
/// by `legio_wire`, played by the VII Legio policy of `kind`, built fresh
/// from `seed` (so the pick depends on the view and the seed alone).
/// `Ok(None)` when the state's seat has nothing to decide.
pub fn play_legio(
    kind: PolicyKind,
    seed: u64,
    st: &pb::GameState,
    budget: &Budget,
) -> Result<Option<String>, legio_wire::WireError> {
    let view = legio_wire::view(st)?;
    Ok(crate::legio::build(kind, seed).choose(&view, budget))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_type_finds_its_entry_and_unknown_ones_none() {
        let st = |t: &str| pb::GameState { game_type: t.into(), ..Default::default() };
        assert_eq!(kind_of(&st("xodus")), Some(GameKind::Xodus));
        assert_eq!(kind_of(&st("legio")), Some(GameKind::Legio));
        assert_eq!(kind_of(&st("high_card")), None);
        assert_eq!(kind_of(&st("")), None);
        for e in ENTRIES {
            for p in e.policies {
                assert!(PolicyKind::parse(p).is_some(), "{} names an unknown policy {p}", e.game_type);
            }
        }
    }
}
