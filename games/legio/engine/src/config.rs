//! Per-game configuration: the number of commanders, the seed, the round
//! limit and the rules revision. Together with the ordered choices it fixes
//! the whole game.

use serde::{Deserialize, Serialize};

/// Everything that varies between two games before the first choice.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameConfig {
    /// Commanders (U.C.), 2 to 4; seats `0..players`.
    pub players: u8,
    /// The seed of the game's generator.
    pub seed: u64,
    /// A hosted game's safety net, not a rule of the text: after this many
    /// rounds the game ends as if an end trigger had fired (cause
    /// `round_limit`). 0 means no limit. See docs/legio-readings.md.
    #[serde(default = "default_round_limit")]
    pub round_limit: u32,
    /// Which revision of the engine's rules this game plays (see
    /// [`RULES_REVISION`]). `None` is revision 0, the rules as first
    /// shipped, so a stored configuration without the field replays as it
    /// was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_revision: Option<u32>,
}

/// The round limit of a configuration stored without one (revision 0
/// games): kept at 40 so that those games replay unchanged.
pub const DEFAULT_ROUND_LIMIT: u32 = 40;

/// The round limit [`GameConfig::new`] gives a new game: a safety net that
/// purposeful play never reaches (docs/legio-readings.md, R20).
pub const HOSTED_ROUND_LIMIT: u32 = 80;

/// The current rules revision, the one [`GameConfig::new`] plays. Each
/// revision changes the rules only for games configured with it (or a
/// later one); a game keeps its revision for its whole life.
///
/// - 0: the rules as first shipped.
/// - 1: mission shares rounded per share (the active commander's up, the
///   others' down); a game cut by the round limit is truncated (no
///   ranking, no winner); 13 discovery markers per commander; repair
///   resets the ship to its grey boxes (down as well as up); after a
///   declined invitation the active commander may invite another ship;
///   at least the star's `crew` of the personnel left for its PX are
///   squads (the minimum crew staying on the planet).
///   See docs/legio-readings.md.
pub const RULES_REVISION: u32 = 1;

fn default_round_limit() -> u32 {
    DEFAULT_ROUND_LIMIT
}

/// A configuration the rules cannot play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// VII Legio is for 2 to 4 commanders.
    #[error("VII Legio is played by 2 to 4 commanders, not {0}")]
    Players(u8),
}

impl GameConfig {
    /// A new game for `players` commanders: the current rules
    /// ([`RULES_REVISION`]) and the hosted round limit
    /// ([`HOSTED_ROUND_LIMIT`]).
    pub fn new(players: u8, seed: u64) -> GameConfig {
        GameConfig { players, seed, round_limit: HOSTED_ROUND_LIMIT, rules_revision: Some(RULES_REVISION) }
    }

    /// Makes this configuration play the current rules.
    pub fn play_current_rules(&mut self) {
        self.rules_revision = Some(RULES_REVISION);
    }

    /// The rules revision played (0 when the field is absent).
    pub fn rules_revision(&self) -> u32 {
        self.rules_revision.unwrap_or(0)
    }

    /// Checks the configuration.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if (2..=4).contains(&self.players) { Ok(()) } else { Err(ConfigError::Players(self.players)) }
    }

    /// Imperator calls each commander may make: 3, or 5 with 2 commanders.
    pub fn imperator_calls(&self) -> u8 {
        if self.players == 2 { 5 } else { 3 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R20 and the rules revisions: a new game plays the current rules with
    /// the hosted limit; a stored configuration without the fields is a
    /// revision 0 game with the old limit, and it is written back without
    /// the revision field.
    #[test]
    fn new_games_play_the_current_rules_and_stored_ones_keep_theirs() {
        let new = GameConfig::new(2, 1);
        assert_eq!((new.rules_revision(), new.round_limit), (RULES_REVISION, HOSTED_ROUND_LIMIT));
        let mut old: GameConfig = serde_json::from_str(r#"{"players":2,"seed":1}"#).expect("stored config");
        assert_eq!((old.rules_revision(), old.round_limit), (0, DEFAULT_ROUND_LIMIT));
        let text = serde_json::to_string(&old).expect("json");
        assert!(!text.contains("rules_revision"), "{text}");
        old.play_current_rules();
        assert_eq!(old.rules_revision(), RULES_REVISION);
    }
}
