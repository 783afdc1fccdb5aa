//! Allies (`content/allies.toml`, rulebook p. 8, FAQ "Alliés"): what each
//! of the four offers for sale and its skill.

use super::*;

/// What an Ally offers for sale.
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct AllyOffer {
    /// Ship Modules drawn.
    pub ship_modules: u8,
    /// Precursor Ship Modules drawn.
    pub precursor_modules: u8,
}

/// An Ally's special skill.
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AllySkill {
    /// Reveal a system anywhere for scraps.
    Chart {
        /// Price.
        cost: u8,
    },
    /// Repairs: 1 health per scrap, a Damaged card for `cost`.
    Repairs {
        /// Price of removing a Damaged card.
        cost: u8,
    },
    /// Pacify an Enemy system anywhere for scraps.
    Muscle {
        /// Price.
        cost: u8,
    },
    /// Modules cost less.
    Bargain {
        /// Discount.
        cost: u8,
    },
}

/// An Ally card.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AllyDef {
    /// Which Ally.
    pub kind: crate::config::AllyKind,
    /// Display name.
    pub name: String,
    /// Modules on offer when met.
    pub offer: AllyOffer,
    /// Special skill.
    pub skill: AllySkill,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AlliesFile {
    ally: Vec<AllyDef>,
}

/// Parses and validates `allies.toml`, in `AllyKind::ALL` order.
pub(super) fn load(text: &str) -> Result<Vec<AllyDef>, ContentError> {
    let mut allies = parse::<AlliesFile>("allies.toml", text)?.ally;
    allies.sort_by_key(|a| a.kind);
    if allies.iter().map(|a| a.kind).collect::<Vec<_>>() != crate::config::AllyKind::ALL {
        return Err(err("allies.toml", "ally", "each of the four Allies exactly once"));
    }
    Ok(allies)
}
