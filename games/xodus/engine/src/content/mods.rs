//! Precursor Mods (`content/mods.toml`, rulebook p. 14, FAQ
//! "Augmentations"): six per ship, one or two effects per level.

use super::*;

/// One effect of a Precursor Mod.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModEffectDef {
    /// Stable identifier.
    pub id: String,
    /// Name (as the FAQ names it).
    pub name: String,
    /// Energy (levels 1, 3, 5) or passive (2, 4, 6).
    pub activation: Activation,
    /// When it can be used.
    pub trigger: Trigger,
    /// What it does.
    pub effect: ModuleEffect,
}

/// A Precursor Mod card: one level of one ship.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModDef {
    /// The ship.
    pub ship: crate::config::ShipKind,
    /// Level 1..=6.
    pub level: u8,
    /// One effect at level 1, a choice of two from level 2.
    pub effects: Vec<ModEffectDef>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ModsFile {
    #[serde(rename = "mod")]
    mods: Vec<ModDef>,
}

pub(super) fn validate_mods(mods: &[ModDef]) -> Result<(), ContentError> {
    const F: &str = "mods.toml";
    unique_ids(F, mods.iter().flat_map(|m| m.effects.iter().map(|e| e.id.as_str())))?;
    if mods.len() != 36 {
        return Err(err(F, "mod", format!("36 Precursor Mods expected (6 per ship), found {}", mods.len())));
    }
    for ship in crate::config::ShipKind::ALL {
        for level in 1..=6u8 {
            let here: Vec<&ModDef> = mods.iter().filter(|m| m.ship == ship && m.level == level).collect();
            let name = format!("{} level {level}", ship.as_str());
            let [m] = here.as_slice() else {
                return Err(err(F, name, "exactly one mod per ship and level"));
            };
            let want = if level == 1 { 1 } else { 2 };
            if m.effects.len() != want {
                return Err(err(F, name, format!("{want} effect(s) expected")));
            }
            let energy = level % 2 == 1;
            for e in &m.effects {
                if (e.activation == Activation::Energy) != energy {
                    return Err(err(F, &e.id, "energy mods at levels 1, 3, 5; passive mods at 2, 4, 6"));
                }
            }
        }
    }
    Ok(())
}

/// Parses and validates `mods.toml`.
pub(super) fn load(text: &str) -> Result<Vec<ModDef>, ContentError> {
    let mods = parse::<ModsFile>("mods.toml", text)?.mods;
    validate_mods(&mods)?;
    Ok(mods)
}
