//! Exploration cards (`content/explorations.toml`, rulebook pp. 10-11):
//! Analysis, Warning and Danger cards and their options, and the symbol
//! effects of p. 11 that cards and Signals apply; 20 cards.

use super::*;

/// An immediate effect from the rulebook's symbol list.
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Each ship in the group loses health.
    LoseHealth {
        /// Health lost.
        amount: u8,
    },
    /// Each ship in the group draws a Damaged card.
    Damaged,
    /// The Corruption marker advances at once.
    AdvanceCorruption,
    /// Avatars move one more system this turn.
    AvatarMovesUp,
    /// Avatars move one system fewer this turn.
    AvatarMovesDown,
    /// A rift opens in the group's system.
    CreateRift,
    /// The group's turn ends.
    EndTurn,
    /// Each ship recovers health.
    RecoverHealth {
        /// Health recovered.
        amount: u8,
    },
    /// Each ship recovers all its energy.
    RecoverEnergy,
    /// The group gains scraps to share.
    GainScraps {
        /// Scraps gained.
        amount: u8,
    },
    /// Reveal systems anywhere on the board (connected to a revealed one).
    RevealSystems {
        /// How many.
        amount: u8,
    },
    /// Pacify revealed Enemy systems anywhere on the board.
    PacifySystems {
        /// How many.
        amount: u8,
    },
    /// Disable the rift of the group's system (white Rift marker).
    DisableRift,
    /// Gain a Ship Module for free; the group decides who takes it.
    GainModule,
    /// Gain a Precursor Ship Module for free; the group decides who takes it.
    GainPrecursorModule,
    /// A new Ally (one not chosen at setup) joins in this system (FAQ, Trapped Ally).
    NewAlly,
}

/// The three kinds of Exploration (p. 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExplorationType {
    /// Safe; several options for more Actions.
    Analysis,
    /// One option for the whole group; one needs a Skill Roll.
    Warning,
    /// A Skill Roll the group passes or fails together.
    Danger,
}

/// One option of an Exploration card.
#[derive(Clone, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ExplorationOption {
    /// Locked unless a ship of the group has this class.
    #[serde(default)]
    pub class: Option<ShipClass>,
    /// Specials needed on a Skill Roll (Warning's strong option).
    #[serde(default)]
    pub skill: Option<u8>,
    /// Effects (on success when there is a Skill Roll).
    #[serde(default)]
    pub effects: Vec<Effect>,
    /// Effects on a failed Skill Roll.
    #[serde(default)]
    pub penalty: Vec<Effect>,
}

/// An Exploration card.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplorationDef {
    /// Stable identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Analysis, Warning or Danger.
    #[serde(rename = "type")]
    pub kind: ExplorationType,
    /// Options (Analysis and Warning).
    #[serde(default)]
    pub options: Vec<ExplorationOption>,
    /// Specials needed (Danger).
    #[serde(default)]
    pub skill: Option<u8>,
    /// Effects of a failed Danger roll.
    #[serde(default)]
    pub penalty: Vec<Effect>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExplorationsFile {
    card: Vec<ExplorationDef>,
}

pub(super) fn validate_explorations(cards: &[ExplorationDef]) -> Result<(), ContentError> {
    const F: &str = "explorations.toml";
    unique_ids(F, cards.iter().map(|c| c.id.as_str()))?;
    if cards.len() != 20 {
        return Err(err(F, "card", format!("20 Exploration cards expected, found {}", cards.len())));
    }
    for c in cards {
        match c.kind {
            ExplorationType::Analysis | ExplorationType::Warning => {
                if c.options.is_empty() || c.options.len() > 3 || c.skill.is_some() {
                    return Err(err(
                        F,
                        &c.id,
                        "Analysis and Warning cards have 1 to 3 options and no card-level skill",
                    ));
                }
                if c.options.iter().any(|o| o.class.is_none() && o.skill.is_none()) {
                    // at least one option always open
                } else {
                    return Err(err(F, &c.id, "one option must be open to every ship"));
                }
                let skills = c.options.iter().filter(|o| o.skill.is_some()).count();
                if c.kind == ExplorationType::Analysis && skills > 0 {
                    return Err(err(F, &c.id, "Analysis options need no Skill Roll"));
                }
                if c.kind == ExplorationType::Warning && skills != 1 {
                    return Err(err(F, &c.id, "a Warning has exactly one option behind a Skill Roll"));
                }
            }
            ExplorationType::Danger => {
                if c.skill.is_none() || !c.options.is_empty() || c.penalty.is_empty() {
                    return Err(err(F, &c.id, "a Danger card has a skill target, a penalty and no options"));
                }
            }
        }
    }
    Ok(())
}

/// Parses and validates `explorations.toml`.
pub(super) fn load(text: &str) -> Result<Vec<ExplorationDef>, ContentError> {
    let explorations = parse::<ExplorationsFile>("explorations.toml", text)?.card;
    validate_explorations(&explorations)?;
    Ok(explorations)
}
