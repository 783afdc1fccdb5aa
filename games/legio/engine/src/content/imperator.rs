//! Imperator cards (`content/imperator.toml`; rulebook "Utilisation de
//! l'Imperator"): the squads and experience the flagship lends, and the PC
//! its own pawn gains when called.

use super::*;

/// One Imperator card.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImperatorDef {
    /// Stable id.
    pub id: String,
    /// Squads lent.
    pub squads: u8,
    /// Experience lent (in whatever domain the mission asks).
    pub experience: u8,
    /// PC the Imperator's pawn gains.
    pub pc: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    card: Vec<ImperatorDef>,
}

pub(super) fn load(text: &str) -> Result<Vec<ImperatorDef>, ContentError> {
    const F: &str = "imperator.toml";
    let cards = parse::<File>(F, text)?.card;
    if cards.len() != 30 {
        return Err(err(F, "card", format!("30 Imperator cards, found {}", cards.len())));
    }
    unique_ids(F, cards.iter().map(|c| c.id.as_str()))?;
    for c in &cards {
        if c.squads == 0 || c.squads > 4 || c.experience > 5 || c.pc == 0 || c.pc > 5 {
            return Err(err(F, &c.id, "1-4 squads, 0-5 experience, 1-5 PC"));
        }
    }
    Ok(cards)
}
