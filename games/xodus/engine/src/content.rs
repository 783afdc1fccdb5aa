//! Game content as data: tiles, dice, the Corruption mat, Enemies,
//! Avatars, Damaged cards, ships, Precursor Signals, Explorations, modules,
//! Allies and Precursor Mods are read from the TOML files in
//! `games/xodus/engine/content/` (embedded at compile time) and validated once. Rules
//! code reads behaviour from these records instead of branching on card
//! names, so new cards rarely need new code.
//!
//! One submodule per content file holds its schema, its loader and its
//! validation (`content/tiles.rs` for `tiles.toml`, and so on); this file
//! holds [`Content`], the error type and the list of embedded files.

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

mod allies;
mod corruption;
mod damaged;
mod dice;
mod enemies;
mod explorations;
mod mods;
mod modules;
mod ships;
mod signals;
mod tiles;

pub use allies::*;
pub use corruption::*;
pub use damaged::*;
pub use dice::*;
pub use enemies::*;
pub use explorations::*;
pub use mods::*;
pub use modules::*;
pub use ships::*;
pub use signals::*;
pub use tiles::*;

/// All content, loaded and validated.
#[derive(Debug)]
pub struct Content {
    /// Tiles; index = tile id used by the engine.
    pub tiles: Vec<TileDef>,
    /// Faces of the red, blue and yellow dice.
    pub dice: [[Face; 6]; 3],
    /// Faces of the Avatar die.
    pub avatar_die: [AvatarFace; 6],
    /// Mat side for four ships.
    pub mat_four: MatSide,
    /// Mat side for three ships.
    pub mat_three: MatSide,
    /// Enemy cards.
    pub enemies: Vec<EnemyDef>,
    /// Avatar cards, sorted by number.
    pub avatars: Vec<AvatarDef>,
    /// Damaged cards.
    pub damaged: Vec<DamagedDef>,
    /// Ship mats, in `ShipKind::ALL` order.
    pub ships: Vec<ShipDef>,
    /// Precursor Signal cards.
    pub signals: Vec<SignalDef>,
    /// Exploration cards.
    pub explorations: Vec<ExplorationDef>,
    /// Ship Modules and Precursor Ship Modules.
    pub modules: Vec<ModuleDef>,
    /// Allies, in `AllyKind::ALL` order.
    pub allies: Vec<AllyDef>,
    /// Precursor Mod cards.
    pub mods: Vec<ModDef>,
    /// Every mod effect, flattened (index = mod effect id used in state).
    pub mod_effects: Vec<ModEffectDef>,
}

pub use tabletop_kit::content::ContentError;
use tabletop_kit::content::{err, parse, unique_ids};

/// The embedded content files, by name.
pub const FILES: [(&str, &str); 11] = [
    ("tiles.toml", include_str!("../content/tiles.toml")),
    ("dice.toml", include_str!("../content/dice.toml")),
    ("corruption.toml", include_str!("../content/corruption.toml")),
    ("enemies.toml", include_str!("../content/enemies.toml")),
    ("damaged.toml", include_str!("../content/damaged.toml")),
    ("ships.toml", include_str!("../content/ships.toml")),
    ("signals.toml", include_str!("../content/signals.toml")),
    ("explorations.toml", include_str!("../content/explorations.toml")),
    ("modules.toml", include_str!("../content/modules.toml")),
    ("allies.toml", include_str!("../content/allies.toml")),
    ("mods.toml", include_str!("../content/mods.toml")),
];

impl Content {
    /// Parses and validates content from the given file texts (same order as [`FILES`]).
    pub fn load(texts: [&str; 11]) -> Result<Content, ContentError> {
        let tiles = tiles::load(texts[0])?;
        let (dice, avatar_die) = dice::load(texts[1])?;
        let (mat_four, mat_three) = corruption::load(texts[2])?;
        let (enemies, avatars) = enemies::load(texts[3])?;
        let damaged = damaged::load(texts[4])?;
        let ships = ships::load(texts[5])?;
        let signals = signals::load(texts[6])?;
        let explorations = explorations::load(texts[7])?;
        let modules = modules::load(texts[8])?;
        let allies = allies::load(texts[9])?;
        let mods = mods::load(texts[10])?;
        let mod_effects = mods.iter().flat_map(|m| m.effects.iter().cloned()).collect();
        Ok(Content {
            tiles,
            dice,
            avatar_die,
            mat_four,
            mat_three,
            enemies,
            avatars,
            damaged,
            ships,
            signals,
            explorations,
            modules,
            allies,
            mods,
            mod_effects,
        })
    }

    /// The embedded content, loaded once. Panics only if the files shipped
    /// inside the crate are invalid, which the content tests rule out.
    pub fn get() -> &'static Content {
        static CONTENT: OnceLock<Content> = OnceLock::new();
        CONTENT.get_or_init(|| {
            let texts = FILES.map(|(_, t)| t);
            match Content::load(texts) {
                Ok(c) => c,
                Err(e) => panic!("embedded content is invalid: {e}"),
            }
        })
    }

    /// Faces of a player die.
    pub fn die(&self, color: DieColor) -> &[Face; 6] {
        &self.dice[color as usize]
    }

    /// The ship mat for a kind.
    pub fn ship(&self, kind: crate::config::ShipKind) -> &ShipDef {
        &self.ships[kind as usize]
    }

    /// A module's or mod's usable power.
    pub fn power(&'static self, source: crate::decision::Source) -> Power {
        match source {
            crate::decision::Source::Module(m) => {
                let d = &self.modules[m as usize];
                Power { name: &d.name, activation: d.activation, trigger: d.trigger, effect: d.effect }
            }
            crate::decision::Source::Mod(m) => {
                let d = &self.mod_effects[m as usize];
                Power { name: &d.name, activation: d.activation, trigger: d.trigger, effect: d.effect }
            }
        }
    }

    /// Indices of the mod effects a ship may take at a level.
    pub fn mod_choices(&self, ship: crate::config::ShipKind, level: u8) -> Vec<u8> {
        let mut i = 0u8;
        let mut out = Vec::new();
        for m in &self.mods {
            for _ in &m.effects {
                if m.ship == ship && m.level == level {
                    out.push(i);
                }
                i += 1;
            }
        }
        out
    }

    /// The tile index of the Main Rift.
    pub fn main_rift(&self) -> u8 {
        self.tiles.iter().position(|t| t.kind == SystemKind::MainRift).unwrap_or(0) as u8
    }
}
