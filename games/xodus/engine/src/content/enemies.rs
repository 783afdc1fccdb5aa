//! Enemies and Avatars (`content/enemies.toml`, rulebook pp. 14-16):
//! their statistics and abilities; 16 Enemies, four per level.

use super::*;

/// The condition and behaviour of an Enemy or Avatar ability.
#[derive(Clone, Copy, Debug, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Ability {
    /// A ship showing at least `min_misses` misses takes `amount` more retaliation.
    Swarm {
        /// Misses needed.
        min_misses: u8,
        /// Extra retaliation.
        amount: u8,
    },
    /// A ship that chose Offense takes more retaliation if it shows a miss.
    Piercing {
        /// Extra retaliation.
        amount: u8,
    },
    /// More shields against an attack in which anyone chose Defense.
    Bulwark {
        /// Extra shields.
        amount: u8,
    },
    /// A ship that takes retaliation loses scraps.
    Pillage {
        /// Scraps lost.
        amount: u8,
    },
    /// A ship that shows a miss exhausts available energy.
    Drain {
        /// Energy exhausted.
        amount: u8,
    },
    /// Recovers health after surviving an attack.
    Regenerate {
        /// Health recovered.
        amount: u8,
    },
    /// A ship that disengages loses more health.
    Pursuit {
        /// Extra health lost.
        amount: u8,
    },
    /// On a critical miss, permanently discard a health marker.
    Sunder {
        /// Markers discarded.
        amount: u8,
    },
    /// A ship showing two misses permanently discards an energy marker.
    Nullify {
        /// Markers discarded.
        amount: u8,
    },
    /// A ship that takes retaliation permanently discards a module or mod.
    Dismantle {
        /// Cards discarded.
        amount: u8,
    },
}

/// An Enemy card.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnemyDef {
    /// Stable identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Level 1-4.
    pub level: u8,
    /// Health.
    pub health: u8,
    /// Shields, bypassed on every attack.
    pub shields: u8,
    /// Special ability.
    pub ability: Ability,
}

/// An Avatar card.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AvatarDef {
    /// Stable identifier.
    pub id: String,
    /// Number printed on the token (movement order).
    pub number: u8,
    /// Display name.
    pub name: String,
    /// Health.
    pub health: u8,
    /// Shields.
    pub shields: u8,
    /// Special ability.
    pub ability: Ability,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EnemiesFile {
    enemy: Vec<EnemyDef>,
    avatar: Vec<AvatarDef>,
}

pub(super) fn validate_enemies(en: &EnemiesFile) -> Result<(), ContentError> {
    const F: &str = "enemies.toml";
    unique_ids(F, en.enemy.iter().map(|e| e.id.as_str()).chain(en.avatar.iter().map(|a| a.id.as_str())))?;
    if en.enemy.len() != 16 {
        return Err(err(F, "enemy", "16 Enemy cards expected"));
    }
    for lvl in 1..=4 {
        if en.enemy.iter().filter(|e| e.level == lvl).count() != 4 {
            return Err(err(F, format!("level {lvl}"), "4 Enemies per level expected"));
        }
    }
    for e in &en.enemy {
        if e.health == 0 {
            return Err(err(F, &e.id, "health must be positive"));
        }
        if matches!(e.ability, Ability::Sunder { .. } | Ability::Nullify { .. } | Ability::Dismantle { .. }) {
            return Err(err(F, &e.id, "permanent discards are Avatar abilities"));
        }
    }
    if en.avatar.len() != 4 {
        return Err(err(F, "avatar", "4 Avatars expected"));
    }
    let max_enemy = en.enemy.iter().map(|e| e.health).max().unwrap_or(0);
    let mut numbers: Vec<u8> = en.avatar.iter().map(|a| a.number).collect();
    numbers.sort();
    if numbers != [1, 2, 3, 4] {
        return Err(err(F, "avatar", "Avatars are numbered 1 to 4"));
    }
    for a in &en.avatar {
        if a.health <= max_enemy {
            return Err(err(F, &a.id, "an Avatar has more health than any Enemy"));
        }
    }
    Ok(())
}

/// Parses and validates `enemies.toml`: the Enemies, then the Avatars
/// sorted by number.
pub(super) fn load(text: &str) -> Result<(Vec<EnemyDef>, Vec<AvatarDef>), ContentError> {
    let en: EnemiesFile = parse("enemies.toml", text)?;
    validate_enemies(&en)?;
    let mut avatars = en.avatar;
    avatars.sort_by_key(|a| a.number);
    Ok((en.enemy, avatars))
}
