//! Extrasolar cards (`content/extrasolar.toml`; rulebook "Carte
//! Extrasolaire", "Missions", "Explorer le secteur X"): the A and B contacts
//! with their landing and mission numbers, and the X cards' gifts.

use super::*;

/// The three piles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pile {
    /// Zone A contacts (sectors 1-3).
    A,
    /// Zone B contacts (sectors 4-5).
    B,
    /// Sector X.
    X,
}

/// The star of a mission card: personnel left behind for PX.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Star {
    /// Personnel (squads or experts) each participant leaves.
    pub leave: u8,
    /// The minimum crew among them: squads of legionnaires that must stay
    /// on the planet (rules revision 1; 0 = none). At most `leave`.
    #[serde(default)]
    pub crew: u8,
    /// PX gained for it.
    pub px: u8,
}

/// What an X card gives when chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gift {
    /// PX gained.
    #[serde(default)]
    pub px: u8,
    /// PC gained.
    #[serde(default)]
    pub pc: u8,
    /// Experience gained in each domain (up to the memory).
    #[serde(default)]
    pub experience: u8,
    /// Lasers installed (up to the maximum).
    #[serde(default)]
    pub lasers: u8,
    /// Propulsors installed (up to the maximum).
    #[serde(default)]
    pub propulsors: u8,
}

/// One Extrasolar card.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtrasolarDef {
    /// Stable id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Its pile.
    pub pile: Pile,
    /// Sapiens (Diplomacy) or not (Capture); A and B only.
    #[serde(default)]
    pub sapiens: bool,
    /// Domains the mission accepts: one, or two for a double competence.
    #[serde(default)]
    pub domains: Vec<Domain>,
    /// Squads needed to land.
    #[serde(default)]
    pub squads: u8,
    /// Experience required.
    #[serde(default)]
    pub experience: u8,
    /// PC shared on success.
    #[serde(default)]
    pub pc: u8,
    /// The star.
    #[serde(default)]
    pub star: Option<Star>,
    /// X cards: the gift.
    #[serde(default)]
    pub gift: Option<Gift>,
}

impl ExtrasolarDef {
    /// A mission with a double competence.
    pub fn double(&self) -> bool {
        self.domains.len() == 2
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    card: Vec<ExtrasolarDef>,
}

pub(super) fn load(text: &str) -> Result<Vec<ExtrasolarDef>, ContentError> {
    const F: &str = "extrasolar.toml";
    let cards = parse::<File>(F, text)?.card;
    unique_ids(F, cards.iter().map(|c| c.id.as_str()))?;
    for (pile, n) in [(Pile::A, 24), (Pile::B, 21), (Pile::X, 5)] {
        let found = cards.iter().filter(|c| c.pile == pile).count();
        if found != n {
            return Err(err(F, format!("pile {pile:?}"), format!("{n} cards, found {found}")));
        }
    }
    for c in &cards {
        if c.pile == Pile::X {
            if c.gift.is_none() || c.star.is_some() || !c.domains.is_empty() {
                return Err(err(F, &c.id, "an X card has a gift and no mission"));
            }
            continue;
        }
        let want = if c.sapiens { Domain::Diplomacy } else { Domain::Capture };
        match c.domains.as_slice() {
            [d] if *d == want => {}
            [a, b] if a != b => {}
            _ => return Err(err(F, &c.id, "one domain matching `sapiens`, or two different ones")),
        }
        if c.squads == 0 || c.squads > 6 || c.experience == 0 || c.pc == 0 || c.gift.is_some() {
            return Err(err(F, &c.id, "a contact needs 1-6 squads, some experience and PC, and no gift"));
        }
        match c.star {
            Some(s) if s.leave > 0 && s.px > 0 && s.crew <= s.leave => {}
            _ => return Err(err(F, &c.id, "a contact's star leaves personnel (at most `leave` crew) for PX")),
        }
    }
    Ok(cards)
}
