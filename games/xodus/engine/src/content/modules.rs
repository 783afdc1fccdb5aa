//! Ship Modules and Precursor Ship Modules (`content/modules.toml`,
//! rulebook p. 13): activation, trigger and effect, shared with the
//! Precursor Mods through [`Power`].

use super::*;

/// How a module is activated (p. 13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Activation {
    /// A permanent effect.
    Passive,
    /// Discarded after use.
    Consumable,
    /// Flip an energy marker to use.
    Energy,
}

/// When a module or mod can be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// Before your attack roll (while manoeuvres are chosen).
    BeforeAttackRoll,
    /// While engaged, before choosing the next attack.
    Engaged,
    /// After your attack roll, on your dice (or a fleet ship's).
    AfterAttackRoll,
    /// During your turn; costs no Action.
    Action,
    /// When you defeat an Enemy.
    OnDefeatEnemy,
    /// Always on.
    Passive,
}

/// What a module does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ModuleEffect {
    /// Reroll up to `dice` of your dice (each die at most once).
    Reroll {
        /// Dice rerolled.
        dice: u8,
    },
    /// Ignore misses: no retaliation, damage or Enemy ability from them.
    IgnoreMiss {
        /// Misses ignored.
        count: u8,
        /// May ignore a fleet ship's miss.
        #[serde(default)]
        fleet: bool,
    },
    /// One of your specials counts as hits (the die is then used).
    SpecialAsHits {
        /// Hits per special.
        hits: u8,
    },
    /// Add hits to your attack.
    AddHits {
        /// Hits added.
        hits: u8,
    },
    /// Retaliation against you is reduced.
    Armor {
        /// Reduction per attack.
        amount: u8,
    },
    /// Ignore part of the Enemy's shields.
    Pierce {
        /// Shields ignored.
        amount: u8,
    },
    /// More hits whenever you choose Offense.
    OffenseHits {
        /// Hits added.
        hits: u8,
    },
    /// One miss fewer on your Detection Rolls.
    Stealth,
    /// More scraps when you Scavenge.
    Scavenger {
        /// Extra scraps.
        amount: u8,
    },
    /// Recover health.
    RecoverHealth {
        /// Health.
        amount: u8,
    },
    /// Recover all your energy.
    RecoverEnergy,
    /// One more Action this turn.
    ExtraAction,
    /// Reveal systems anywhere.
    RevealSystems {
        /// How many.
        amount: u8,
    },
    /// Gain scraps.
    GainScraps {
        /// Scraps.
        amount: u8,
    },
    /// Reroll one of your dice; it counts double (Berserker Cannon).
    Berserk,
    /// On a critical miss, each miss also counts as hits (Scattered Ray).
    ScatterOnCritical {
        /// Hits per miss.
        hits: u8,
    },
    /// Each of your misses also counts as hits.
    MissAsHits {
        /// Hits per miss.
        hits: u8,
    },
    /// A ship rerolls both its dice (it must be able to reroll both).
    RerollBoth {
        /// Any fleet ship, not only yours.
        fleet: bool,
    },
    /// Every ship of the fleet may ignore one miss, each choosing for itself.
    GrantIgnoreMiss,
    /// Every ship of the fleet may reroll one die, each choosing for itself.
    GrantReroll,
    /// Fleet ships may pay energy for your energy effects (once per attack or action).
    RelayIn,
    /// You may pay energy for a fleet ship's energy effect (once per attack or action).
    RelayOut,
    /// Roll one more die from the reserve and add it to your roll.
    ReserveDie,
    /// Before the roll: your Offense rolls a third die from the reserve.
    ExtraDie,
    /// Each special you roll adds these bonuses.
    SpecialBonus {
        /// Hits.
        #[serde(default)]
        hits: u8,
        /// Health recovered.
        #[serde(default)]
        heal: u8,
        /// Misses of yours ignored.
        #[serde(default)]
        ignore: u8,
        /// Scraps gained.
        #[serde(default)]
        scraps: u8,
        /// Enemy shields ignored.
        #[serde(default)]
        pierce: u8,
    },
    /// More hits on every attack.
    AttackHits {
        /// Hits.
        hits: u8,
    },
    /// Recover health at the start of your turn.
    StartRegen {
        /// Health.
        amount: u8,
    },
    /// This turn, your Detection Rolls ignore one miss.
    Cloak,
    /// One scrap for each system your group reveals.
    ScrapOnReveal,
    /// One scrap for each Explore action (Signals and the Main Rift too).
    ScrapOnExplore,
    /// Reveal a system adjacent to your current system (no Action).
    FreeProbe,
    /// More specials on your Skill Rolls.
    SkillBonus {
        /// Specials.
        amount: u8,
    },
    /// One more Action; not in a fleet.
    SoloExtraAction,
    /// This turn your Rush may pass Avatars; not in a fleet.
    RushShield,
    /// A special of yours lets you reroll another die (yours, or a fleet ship's).
    SpecialReroll {
        /// Any fleet ship's die.
        fleet: bool,
    },
    /// Lose a scrap per die to reroll up to `dice` dice.
    PayScrapReroll {
        /// Dice per attack.
        dice: u8,
        /// Fleet ships' dice too.
        fleet: bool,
    },
    /// Modules cost less at Allies.
    ModuleDiscount {
        /// Discount.
        amount: u8,
    },
    /// Shuffle an engaged Enemy back into the deck.
    Decoy {
        /// The system is pacified if every Enemy was sent back.
        pacify: bool,
    },
    /// When your fleet's turn ends, you may go on alone.
    SplitFromFleet,
    /// Scavenge gives one more scrap to every ship of your group.
    FleetScavenger,
    /// One scrap: repair 1 health on up to `ships` ships in your system, no Action.
    DroneRepair {
        /// Ships repaired.
        ships: u8,
    },
    /// Repair a ship anywhere.
    RemoteRepair {
        /// Health.
        amount: u8,
    },
    /// Damage Rolls ignore one miss (yours, or every fleet ship's).
    DamageRollShield {
        /// For the whole fleet.
        fleet: bool,
    },
    /// A strain Damage Roll showing a special gives the Strain back, one
    /// Strain even when both dice show one (up to 3 times a turn; FAQ,
    /// Drone Specialist 4; rules revision 4, two specials before).
    StrainRecovery,
    /// Each ship of your group recovers energy.
    FleetEnergy {
        /// Energy per ship.
        amount: u8,
    },
    /// The Enemy's shields are ignored this attack.
    IgnoreShields,
    /// The Enemy's ability does not trigger this attack.
    CancelAbility,
    /// One more energy marker, free.
    BonusEnergy,
}

/// A usable power, from a module or a mod.
#[derive(Clone, Copy, Debug)]
pub struct Power {
    /// Display name.
    pub name: &'static str,
    /// How it is paid.
    pub activation: Activation,
    /// When it can be used.
    pub trigger: Trigger,
    /// What it does.
    pub effect: ModuleEffect,
}

/// A Ship Module or Precursor Ship Module card.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModuleDef {
    /// Stable identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// A Precursor Ship Module.
    pub precursor: bool,
    /// Price in scraps at an Ally.
    pub price: u8,
    /// Passive, consumable or energy.
    pub activation: Activation,
    /// When it can be used.
    pub trigger: Trigger,
    /// What it does.
    pub effect: ModuleEffect,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ModulesFile {
    module: Vec<ModuleDef>,
}

pub(super) fn validate_modules(modules: &[ModuleDef]) -> Result<(), ContentError> {
    const F: &str = "modules.toml";
    unique_ids(F, modules.iter().map(|m| m.id.as_str()))?;
    let precursor = modules.iter().filter(|m| m.precursor).count();
    if modules.len() - precursor != 24 || precursor != 8 {
        return Err(err(F, "module", "24 Ship Modules and 8 Precursor Ship Modules expected"));
    }
    for m in modules {
        let passive_effect = matches!(
            m.effect,
            ModuleEffect::Armor { .. }
                | ModuleEffect::Pierce { .. }
                | ModuleEffect::OffenseHits { .. }
                | ModuleEffect::Stealth
                | ModuleEffect::Scavenger { .. }
        );
        if passive_effect != (m.trigger == Trigger::Passive)
            || (m.trigger == Trigger::Passive && m.activation != Activation::Passive)
        {
            return Err(err(F, &m.id, "passive effects need the passive trigger and activation"));
        }
        let dice_effect = matches!(
            m.effect,
            ModuleEffect::Reroll { .. }
                | ModuleEffect::IgnoreMiss { .. }
                | ModuleEffect::SpecialAsHits { .. }
                | ModuleEffect::AddHits { .. }
        );
        if dice_effect != (m.trigger == Trigger::AfterAttackRoll) {
            return Err(err(F, &m.id, "dice effects are used after an attack roll"));
        }
        if m.price == 0 {
            return Err(err(F, &m.id, "a module has a scrap price"));
        }
    }
    Ok(())
}

/// Parses and validates `modules.toml`.
pub(super) fn load(text: &str) -> Result<Vec<ModuleDef>, ContentError> {
    let modules = parse::<ModulesFile>("modules.toml", text)?.module;
    validate_modules(&modules)?;
    Ok(modules)
}
