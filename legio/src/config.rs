//! Per-game configuration: the number of commanders, the seed and the round
//! limit. Together with the ordered choices it fixes the whole game.

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
}

/// The default round limit.
pub const DEFAULT_ROUND_LIMIT: u32 = 40;

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
    /// A game for `players` commanders with the default round limit.
    pub fn new(players: u8, seed: u64) -> GameConfig {
        GameConfig { players, seed, round_limit: DEFAULT_ROUND_LIMIT }
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
