//! The opposition: Enemies, Avatars and the Damaged cards they leave.

use xodus_engine::content::{Ability, AvatarDef, DamagedDef, DamagedEffect, EnemyDef};
use xodus_engine::text::words::{count, paragraph};

/// An Enemy card.
pub fn enemy(e: &EnemyDef) -> String {
    paragraph(&[
        format!("a level {} Enemy with {} health and {}", e.level, e.health, shields(e.shields)),
        ability(&e.ability),
    ])
}

/// An Avatar.
pub fn avatar(a: &AvatarDef) -> String {
    paragraph(&[
        format!(
            "Avatar number {} (the Avatars move in the order of their numbers), with {} health and {}",
            a.number,
            a.health,
            shields(a.shields)
        ),
        ability(&a.ability),
    ])
}

/// Shields, which every attack must get through.
fn shields(n: u8) -> String {
    match n {
        0 => "no shields".into(),
        n => format!("{}, taken off the hits of every attack", count(n, "shield", "shields")),
    }
}

/// An Enemy's or Avatar's special ability, named.
fn ability(a: &Ability) -> String {
    match *a {
        Ability::Swarm { min_misses, amount } => format!(
            "Swarm: a ship that shows at least {} takes {amount} more retaliation",
            count(min_misses, "miss", "misses")
        ),
        Ability::Piercing { amount } => {
            format!("Piercing: a ship that chose Offense and shows a miss takes {amount} more retaliation")
        }
        Ability::Bulwark { amount } => format!(
            "Bulwark: {} against an attack in which any ship chose Defense",
            count(amount, "more shield", "more shields")
        ),
        Ability::Pillage { amount } => {
            format!("Pillage: a ship that takes retaliation also loses {}", count(amount, "scrap", "scraps"))
        }
        Ability::Drain { amount } => {
            format!("Drain: a ship that shows a miss exhausts {amount} of its available energy")
        }
        Ability::Regenerate { amount } => format!("Regenerate: if it survives an attack, it recovers {amount} health"),
        Ability::Pursuit { amount } => format!("Pursuit: a ship that disengages loses {amount} more health"),
        Ability::Sunder { amount } => format!(
            "Sunder: on a critical miss, the ship discards {} for good",
            count(amount, "health marker", "health markers")
        ),
        Ability::Nullify { amount } => format!(
            "Nullify: a ship that shows two misses discards {} for good",
            count(amount, "energy marker", "energy markers")
        ),
        Ability::Dismantle { amount } => format!(
            "Dismantle: a ship that takes retaliation discards {} for good",
            count(amount, "module or mod", "modules or mods")
        ),
    }
}

/// A Damaged card.
pub fn damaged(d: &DamagedDef) -> String {
    let effect = match d.effect {
        DamagedEffect::FewerActions => "the ship has one Action fewer each turn, but never fewer than one",
        DamagedEffect::NoStrain => "the ship cannot Strain",
        DamagedEffect::BrittleHull => "the ship loses one more health whenever retaliation hits it",
        DamagedEffect::DullSensors => "the ship counts one special fewer on its Skill Rolls",
        DamagedEffect::FusedCapacitor => "one of the ship's energy markers cannot be used",
        DamagedEffect::WarpedTargeting => "the ship counts one hit fewer on its attack rolls",
        DamagedEffect::ShakenCrew => "the ship cannot choose the Defense manoeuvre",
        DamagedEffect::FrayedDrive => "the ship cannot make a Hyperspace Rush",
    };
    paragraph(&[format!("a Damaged card: as long as it stays on the ship, {effect}")])
}
