//! Game content as data: Exploration, Extrasolar and Imperator cards, the
//! Secret Objectives, the two sides of the ship boards, the damage table and
//! the Red Nebula's sectors are read from the TOML files in `games/legio/engine/content/`
//! (embedded at compile time) and validated once; an error names the file
//! and the entry. One submodule per file holds its schema and validation.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

mod damage;
mod exploration;
mod extrasolar;
mod imperator;
mod nebula;
mod objectives;
mod ships;

pub use damage::*;
pub use exploration::*;
pub use extrasolar::*;
pub use imperator::*;
pub use nebula::*;
pub use objectives::*;
pub use ships::*;

/// An experience domain. The rulebook names them several ways (see
/// docs/legio-readings.md): Diplomacy is the sapiens column (Diplomats,
/// Holodeck), Capture the non-sapiens one (Hunters, Nanoprobes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Domain {
    /// Alliances and trade with sapiens Extrasolars (also "Intelligence").
    Diplomacy,
    /// Capture and intimidation of non-sapiens ones (also "Force", "Exobiologie").
    Capture,
}

impl Domain {
    /// Both domains, in table order.
    pub const ALL: [Domain; 2] = [Domain::Diplomacy, Domain::Capture];
    /// Snake-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Domain::Diplomacy => "diplomacy",
            Domain::Capture => "capture",
        }
    }
}

/// All content, loaded and validated.
#[derive(Debug)]
pub struct Content {
    /// Exploration cards (57); index = card id in the state.
    pub exploration: Vec<ExplorationDef>,
    /// Extrasolar cards (A 24, B 21, X 5), in file order.
    pub extrasolar: Vec<ExtrasolarDef>,
    /// Imperator cards (30).
    pub imperator: Vec<ImperatorDef>,
    /// Secret Objectives (12).
    pub objectives: Vec<ObjectiveDef>,
    /// The Frombola side, then the Spatha side.
    pub sides: [SideDef; 2],
    /// The damage table, face 1..=10.
    pub damage: [Loss; 10],
    /// Sectors S1..S5, borders and Sector X.
    pub nebula: Nebula,
}

pub use tabletop_kit::content::ContentError;
pub(crate) use tabletop_kit::content::{err, parse, unique_ids};

/// The embedded content files, by name, in [`Content::load`] order.
pub const FILES: [(&str, &str); 7] = [
    ("exploration.toml", include_str!("../content/exploration.toml")),
    ("extrasolar.toml", include_str!("../content/extrasolar.toml")),
    ("imperator.toml", include_str!("../content/imperator.toml")),
    ("objectives.toml", include_str!("../content/objectives.toml")),
    ("ships.toml", include_str!("../content/ships.toml")),
    ("damage.toml", include_str!("../content/damage.toml")),
    ("nebula.toml", include_str!("../content/nebula.toml")),
];

impl Content {
    /// Parses and validates content from file texts (same order as [`FILES`]).
    pub fn load(texts: [&str; 7]) -> Result<Content, ContentError> {
        Ok(Content {
            exploration: exploration::load(texts[0])?,
            extrasolar: extrasolar::load(texts[1])?,
            imperator: imperator::load(texts[2])?,
            objectives: objectives::load(texts[3])?,
            sides: ships::load(texts[4])?,
            damage: damage::load(texts[5])?,
            nebula: nebula::load(texts[6])?,
        })
    }

    /// The embedded content, loaded once. Panics only if the files shipped
    /// inside the crate are invalid, which the content tests rule out.
    pub fn get() -> &'static Content {
        static CONTENT: OnceLock<Content> = OnceLock::new();
        CONTENT.get_or_init(|| match Content::load(FILES.map(|(_, t)| t)) {
            Ok(c) => c,
            Err(e) => panic!("embedded content is invalid: {e}"),
        })
    }

    /// Indices of the Extrasolar cards of one pile.
    pub fn pile(&self, pile: Pile) -> Vec<u8> {
        (0..self.extrasolar.len()).filter(|&i| self.extrasolar[i].pile == pile).map(|i| i as u8).collect()
    }

    /// A ship board side.
    pub fn side(&self, side: crate::state::Side) -> &SideDef {
        &self.sides[side as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_content_loads_and_meets_the_counts() {
        let c = Content::get();
        assert_eq!(c.exploration.len(), 57);
        assert_eq!(c.pile(Pile::A).len(), 24);
        assert_eq!(c.pile(Pile::B).len(), 21);
        assert_eq!(c.pile(Pile::X).len(), 5);
        assert_eq!(c.imperator.len(), 30);
        assert_eq!(c.objectives.len(), 12);
    }

    #[test]
    fn a_bad_entry_is_named_with_its_file() {
        let mut texts = FILES.map(|(_, t)| t);
        let broken = FILES[0].1.replacen("kind = \"xeno_ship\", lasers = 1", "kind = \"xeno_ship\", lasers = 7", 1);
        texts[0] = &broken;
        let e = Content::load(texts).expect_err("a ship needing 7 lasers is refused");
        assert_eq!(e.file, "exploration.toml");
        assert!(e.to_string().contains("e29"), "{e}");
        let dropped = FILES[2].1.replacen("[[card]]\nid = \"i30\"", "[[nothing]]\nid = \"i30\"", 1);
        texts = FILES.map(|(_, t)| t);
        texts[2] = &dropped;
        let e = Content::load(texts).expect_err("29 Imperator cards are refused");
        assert_eq!(e.file, "imperator.toml");
    }
}
