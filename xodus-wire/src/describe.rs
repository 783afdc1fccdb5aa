//! The rules text of X-ODUS's content, in English, written from the same
//! data the engine plays by, so what a player reads is what the engine
//! does. One function per catalog category.

use xodus_engine::content::*;

/// A revealed system.
pub fn tile(t: &TileDef) -> String {
    format!("A {:?} system.", t.kind)
}

/// A Precursor Signal card.
pub fn signal(s: &SignalDef) -> String {
    format!("A {:?} Precursor Signal.", s.tier)
}

/// A Ship Module or Precursor Ship Module.
pub fn module(m: &ModuleDef) -> String {
    format!("{} module, price {} scraps.", if m.precursor { "Precursor" } else { "Ship" }, m.price)
}

/// One Precursor Mod effect.
pub fn mod_effect(m: &ModEffectDef) -> String {
    format!("A Precursor Mod effect: {}.", m.name)
}

/// A level of a ship's Precursor Mods.
pub fn mod_level(m: &ModDef) -> String {
    let names: Vec<&str> = m.effects.iter().map(|e| e.name.as_str()).collect();
    format!("At level {}, the {} unlocks: {}.", m.level, m.ship.as_str(), names.join(" or "))
}

/// An Exploration card.
pub fn exploration(e: &ExplorationDef) -> String {
    format!("An Exploration card with {} options.", e.options.len())
}

/// An Enemy card.
pub fn enemy(e: &EnemyDef) -> String {
    format!("Level {} Enemy: health {}, shields {}.", e.level, e.health, e.shields)
}

/// An Avatar.
pub fn avatar(a: &AvatarDef) -> String {
    format!("Avatar {}: health {}, shields {}.", a.number, a.health, a.shields)
}

/// A Damaged card.
pub fn damaged(d: &DamagedDef) -> String {
    format!("A Damaged card: {}.", d.name)
}

/// An Ally.
pub fn ally(a: &AllyDef) -> String {
    format!(
        "An Ally offering {} Ship Modules and {} Precursor Ship Modules.",
        a.offer.ship_modules, a.offer.precursor_modules
    )
}

/// A ship.
pub fn ship(s: &ShipDef) -> String {
    format!("{} Actions a turn, hull {}.", s.actions, s.hull)
}
