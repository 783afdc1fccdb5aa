//! Ship boards (`content/ships.toml`; rulebook "Prenez le commandement de
//! votre Frombola", "Les Équipements", "Promotion"): the Frombola and Spatha
//! sides, their grey starting boxes, maxima and propulsor-to-cards table.

use super::*;

/// The tracks of a ship board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tracks {
    /// Propulsors (cards drawn per turn, through `cards`).
    pub propulsors: u8,
    /// Lasers.
    pub lasers: u8,
    /// Signal decoder level (0-2).
    pub decoder: u8,
    /// Risk detectors.
    pub detectors: u8,
    /// Squads of legionnaires.
    pub squads: u8,
}

/// One side of the ship boards.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    /// `frombola` or `spatha`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Cards drawable for 0, 1, 2... propulsors.
    pub cards: Vec<u8>,
    /// Grey boxes.
    pub start: Tracks,
    /// Last boxes.
    pub max: Tracks,
    /// Experts aboard at most.
    pub experts_cap: u8,
    /// Experts embarked when the side is taken.
    pub experts_at_start: u8,
    /// Cap of each experience domain.
    pub memory: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    side: Vec<SideDef>,
}

pub(super) fn load(text: &str) -> Result<[SideDef; 2], ContentError> {
    const F: &str = "ships.toml";
    let sides = parse::<File>(F, text)?.side;
    let [frombola, spatha]: [SideDef; 2] =
        sides.try_into().map_err(|_| err(F, "side", "exactly two sides: frombola, then spatha"))?;
    if frombola.id != "frombola" || spatha.id != "spatha" {
        return Err(err(F, "side", "exactly two sides: frombola, then spatha"));
    }
    if frombola.experts_cap != 4 {
        return Err(err(F, "frombola", "the rulebook caps a Frombola at 4 experts"));
    }
    for s in [&frombola, &spatha] {
        let (a, m) = (s.start, s.max);
        if s.cards.len() != usize::from(m.propulsors) + 1 || s.cards.windows(2).any(|w| w[0] >= w[1]) {
            return Err(err(F, &s.id, "`cards` has one increasing entry per propulsor count 0..=max"));
        }
        if a.propulsors > m.propulsors
            || a.lasers > m.lasers
            || a.decoder > m.decoder
            || m.decoder > 2
            || a.detectors > m.detectors
            || a.squads > m.squads
            || a.squads == 0
        {
            return Err(err(F, &s.id, "every grey box lies on its track (decoder at most 2, squads from 1)"));
        }
        if s.experts_at_start > s.experts_cap || s.memory == 0 {
            return Err(err(F, &s.id, "experts at start within the cap, and some memory"));
        }
    }
    if spatha.memory < frombola.memory {
        return Err(err(F, "spatha", "a promotion keeps the experience, so the Spatha's memory is no smaller"));
    }
    Ok([frombola, spatha])
}
