//! Damaged cards (`content/damaged.toml`, rulebook p. 15): what each does
//! while it stays on a ship; 16 cards.

use super::*;

/// What a Damaged card does while it stays on a ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DamagedEffect {
    /// One Action fewer each turn (never below 1).
    FewerActions,
    /// Cannot Strain.
    NoStrain,
    /// One more health lost whenever retaliation hits.
    BrittleHull,
    /// One special fewer on Skill Rolls.
    DullSensors,
    /// One energy marker cannot be used.
    FusedCapacitor,
    /// One hit fewer on attack rolls.
    WarpedTargeting,
    /// Cannot choose the Defense manoeuvre.
    ShakenCrew,
    /// Cannot Hyperspace Rush.
    FrayedDrive,
}

/// A Damaged card.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamagedDef {
    /// Stable identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Lasting effect.
    pub effect: DamagedEffect,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DamagedFile {
    card: Vec<DamagedDef>,
}

/// Parses and validates `damaged.toml`.
pub(super) fn load(text: &str) -> Result<Vec<DamagedDef>, ContentError> {
    let damaged = parse::<DamagedFile>("damaged.toml", text)?.card;
    if damaged.len() != 16 {
        return Err(err("damaged.toml", "card", format!("16 Damaged cards expected, found {}", damaged.len())));
    }
    unique_ids("damaged.toml", damaged.iter().map(|d| d.id.as_str()))?;
    Ok(damaged)
}
