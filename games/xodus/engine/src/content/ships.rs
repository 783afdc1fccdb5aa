//! Ship mats (`content/ships.toml`, rulebook p. 13, FAQ "Vaisseaux
//! Joueurs"): class, dice, Actions, health, energy costs and the XP track
//! and condition of each of the six ships.

use super::*;

/// A ship's class, which unlocks class-locked exploration options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShipClass {
    /// Warrior.
    Warrior,
    /// Scholar.
    Scholar,
    /// Rogue.
    Rogue,
}

/// What earns a ship one XP (FAQ, "Vaisseaux Joueurs").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum XpCondition {
    /// Defeating an Enemy (Avatars count), one per Enemy.
    DefeatEnemy,
    /// Forming or joining a fleet.
    Fleet,
    /// Each Explore action (Signals and the Main Rift included).
    Explore,
    /// Gaining scraps in combat or exploration (once per exploration).
    ScrapsGained,
    /// Each Repair action.
    Repair,
    /// An attack roll with at least three hits (once per attack).
    ThreeHits,
}

/// A ship mat.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShipDef {
    /// Which ship.
    pub kind: crate::config::ShipKind,
    /// Display name.
    pub name: String,
    /// Class.
    pub class: ShipClass,
    /// Actions per turn.
    pub actions: u8,
    /// Hull (health markers).
    pub hull: u8,
    /// The two dice.
    pub dice: [DieColor; 2],
    /// Scrap price of each energy marker (first is free).
    pub energy_costs: Vec<u8>,
    /// XP needed for levels 2..6.
    pub xp_track: Vec<u8>,
    /// What earns XP.
    pub xp_condition: XpCondition,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ShipsFile {
    ship: Vec<ShipDef>,
}

pub(super) fn validate_ships(ships: &mut [ShipDef]) -> Result<(), ContentError> {
    const F: &str = "ships.toml";
    ships.sort_by_key(|s| s.kind as u8);
    let kinds: Vec<_> = ships.iter().map(|s| s.kind).collect();
    if kinds != crate::config::ShipKind::ALL {
        return Err(err(F, "ship", "each of the six ships exactly once"));
    }
    let mut per_color = [0u8; 3];
    for s in ships.iter() {
        let name = s.kind.as_str();
        if s.dice[0] != s.dice[1] {
            // two colours, as the mats show
        } else {
            return Err(err(F, name, "a ship rolls two dice of different colours"));
        }
        for d in s.dice {
            per_color[d as usize] += 1;
        }
        if s.energy_costs.first() != Some(&0) || s.energy_costs.len() > 7 {
            return Err(err(F, name, "the first energy marker is free and a ship holds at most 7"));
        }
        if s.xp_track.len() != 5 || s.xp_track.windows(2).any(|w| w[0] >= w[1]) {
            return Err(err(F, name, "xp_track lists 5 increasing thresholds (levels 2..6)"));
        }
        if !(2..=5).contains(&s.actions) || s.hull == 0 || s.hull > 9 {
            return Err(err(F, name, "actions 2..5 and hull 1..9"));
        }
    }
    let _ = per_color;
    Ok(())
}

/// Parses and validates `ships.toml`.
pub(super) fn load(text: &str) -> Result<Vec<ShipDef>, ContentError> {
    let mut ships = parse::<ShipsFile>("ships.toml", text)?.ship;
    validate_ships(&mut ships)?;
    Ok(ships)
}
