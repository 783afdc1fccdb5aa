//! Exploration cards (`content/exploration.toml`; rulebook "Explorer",
//! "Expérience et gain d'expérience", "Combat Spatial"): each card's risk
//! (the symbol at its top right) and the experience it teaches (top left).

use super::*;

/// What a card exposes the ship to when it is played face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Risk {
    /// An unknown signal: nothing to pay.
    Signal,
    /// Discard more cards from the hand, face down.
    Discard {
        /// How many.
        cards: u8,
    },
    /// A hostile Xeno ship.
    XenoShip {
        /// Lasers needed to beat it (1-3).
        lasers: u8,
        /// Trophy PC.
        pc: u8,
        /// Trophy PX.
        px: u8,
    },
    /// Oz ore: usable from 3 PX on.
    OzOre {
        /// PC gained.
        pc: u8,
        /// PX gained.
        px: u8,
    },
    /// An inhabited planet may be discovered.
    Discovery,
    /// The ship is thrown back to the Star Base.
    Drift,
    /// One roll on the damage table.
    Hazard,
}

/// Experience taught by a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct XpGain {
    /// The domain.
    pub domain: Domain,
    /// Points (1-2).
    pub amount: u8,
}

/// One Exploration card.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplorationDef {
    /// Stable id (`e01`..`e57`).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Its risk.
    pub risk: Risk,
    /// Experience gained by confronting the risk; `None` is the "-".
    #[serde(default)]
    pub xp: Option<XpGain>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    card: Vec<ExplorationDef>,
}

pub(super) fn load(text: &str) -> Result<Vec<ExplorationDef>, ContentError> {
    const F: &str = "exploration.toml";
    let cards = parse::<File>(F, text)?.card;
    if cards.len() != 57 {
        return Err(err(F, "card", format!("57 Exploration cards, found {}", cards.len())));
    }
    unique_ids(F, cards.iter().map(|c| c.id.as_str()))?;
    for c in &cards {
        match c.risk {
            Risk::Discard { cards } if !(1..=3).contains(&cards) => {
                return Err(err(F, &c.id, "a discard risk asks for 1 to 3 cards"));
            }
            Risk::XenoShip { lasers, .. } if !(1..=3).contains(&lasers) => {
                return Err(err(F, &c.id, "a Xeno ship needs 1, 2 or 3 lasers"));
            }
            Risk::OzOre { pc: 0, px: 0 } => return Err(err(F, &c.id, "Oz ore gains something")),
            _ => {}
        }
        if let Some(x) = c.xp
            && !(1..=2).contains(&x.amount)
        {
            return Err(err(F, &c.id, "experience gained is 1 or 2"));
        }
    }
    Ok(cards)
}
