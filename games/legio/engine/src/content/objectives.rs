//! Secret Objectives (`content/objectives.toml`; rulebook "Objectifs
//! secrets", "Fin de partie"): revealed when achieved, or at the end.

use super::*;

/// When an objective is revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum When {
    /// As soon as its condition holds.
    Achieved,
    /// At the end of the game (grey VII Legio symbol).
    End,
}

/// What an objective measures on its holder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measure {
    /// Extrasolar cards of planets it discovered.
    Trophies,
    /// Of those, zone B cards.
    ZoneBTrophies,
    /// Of those, sapiens.
    SapiensTrophies,
    /// Of those, non-sapiens.
    WildTrophies,
    /// Experts aboard.
    Experts,
    /// Lasers installed.
    Lasers,
    /// Propulsors installed.
    Propulsors,
    /// PX.
    Px,
    /// Points on the experience table, both domains.
    Experience,
    /// Promoted to a Spatha (1).
    Spatha,
    /// Went to Sector X (1).
    SectorX,
    /// Imperator calls made.
    ImperatorCalls,
}

/// A condition: the measure is at least `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// What is measured.
    pub kind: Measure,
    /// The threshold.
    pub n: u8,
}

/// One Secret Objective.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveDef {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// When it is revealed.
    pub when: When,
    /// Its condition.
    pub condition: Condition,
    /// PC gained.
    pub pc: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    objective: Vec<ObjectiveDef>,
}

pub(super) fn load(text: &str) -> Result<Vec<ObjectiveDef>, ContentError> {
    const F: &str = "objectives.toml";
    let cards = parse::<File>(F, text)?.objective;
    if cards.len() != 12 {
        return Err(err(F, "objective", format!("12 Secret Objectives, found {}", cards.len())));
    }
    unique_ids(F, cards.iter().map(|c| c.id.as_str()))?;
    for c in &cards {
        if c.condition.n == 0 || c.pc == 0 {
            return Err(err(F, &c.id, "a condition with n >= 1 and some PC"));
        }
    }
    if cards.iter().filter(|c| c.when == When::End).count() < 4 {
        // The sampler relies on enough end-of-game objectives to fill the
        // hidden hands of four commanders holding two objectives each.
        return Err(err(F, "objective", "at least 4 end-of-game objectives"));
    }
    Ok(cards)
}
