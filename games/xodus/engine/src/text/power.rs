//! What a module's or mod's power does, as a clause.

use super::effects::reveal;
use super::words::{count, list};
use crate::content::ModuleEffect;

/// The effect as a clause, e.g. "add 2 hits to your attack".
pub fn clause(e: &ModuleEffect) -> String {
    match *e {
        ModuleEffect::Reroll { dice: 1 } => "reroll one of your dice".into(),
        ModuleEffect::Reroll { dice } => format!("reroll up to {dice} of your dice, each die once"),
        ModuleEffect::IgnoreMiss { count: n, fleet } => format!(
            "ignore {} {}; an ignored miss brings no retaliation, damage or Enemy ability",
            if n == 1 { "one".to_string() } else { format!("up to {n}") },
            match (n == 1, fleet) {
                (true, false) => "of your misses",
                (true, true) => "miss rolled by any ship of your fleet",
                (false, false) => "of your misses",
                (false, true) => "misses rolled by ships of your fleet",
            }
        ),
        ModuleEffect::SpecialAsHits { hits } => {
            format!("one of your specials counts as {} and its die is spent", count(hits, "hit", "hits"))
        }
        ModuleEffect::AddHits { hits } => format!("add {} to your attack", count(hits, "hit", "hits")),
        ModuleEffect::Armor { amount } => format!("each attack's retaliation against you is {amount} lower"),
        ModuleEffect::Pierce { amount } => {
            format!("your attacks ignore {} of the Enemy", count(amount, "shield", "shields"))
        }
        ModuleEffect::OffenseHits { hits } => {
            format!("{} whenever you choose the Offense manoeuvre", count(hits, "more hit", "more hits"))
        }
        ModuleEffect::Stealth => "your Detection Rolls count one miss fewer".into(),
        ModuleEffect::Scavenger { amount } => {
            format!("{} each time you Scavenge", count(amount, "more scrap", "more scraps"))
        }
        ModuleEffect::RecoverHealth { amount } => format!("recover {amount} health"),
        ModuleEffect::RecoverEnergy => "recover all your energy".into(),
        ModuleEffect::ExtraAction => "take one more Action this turn".into(),
        ModuleEffect::RevealSystems { amount } => format!("reveal {}", reveal(amount)),
        ModuleEffect::GainScraps { amount } => format!("gain {}", count(amount, "scrap", "scraps")),
        ModuleEffect::Berserk => "reroll one of your dice, and its new face counts double".into(),
        ModuleEffect::ScatterOnCritical { hits } => {
            format!("on a critical miss in Offense, each of your misses also counts as {}", count(hits, "hit", "hits"))
        }
        ModuleEffect::MissAsHits { hits } => {
            format!("each of your misses also counts as {}", count(hits, "hit", "hits"))
        }
        ModuleEffect::RerollBoth { fleet: false } => {
            "reroll both your dice, if you chose Offense and neither die has been used or rerolled".into()
        }
        ModuleEffect::RerollBoth { fleet: true } => "one ship of your fleet rerolls both its dice, if it chose \
                                                     Offense and neither die has been used or rerolled"
            .into(),
        ModuleEffect::GrantIgnoreMiss => "every ship of your fleet may ignore one of its misses".into(),
        ModuleEffect::GrantReroll => "every ship of your fleet may reroll one of its dice".into(),
        ModuleEffect::RelayIn => {
            "ships of your fleet may pay the energy of your energy powers, once per attack or action".into()
        }
        ModuleEffect::RelayOut => {
            "you may pay the energy of a fleet ship's energy power, once per attack or action".into()
        }
        ModuleEffect::ReserveDie => "roll one more die from the reserve and add it to your roll".into(),
        ModuleEffect::ExtraDie => "if you choose Offense, roll a third die from the reserve".into(),
        ModuleEffect::SpecialBonus { hits, heal, ignore, scraps, pierce } => {
            let parts: Vec<String> = [
                (hits > 0).then(|| format!("adds {}", count(hits, "hit", "hits"))),
                (heal > 0).then(|| format!("restores {heal} health")),
                (ignore > 0).then(|| format!("cancels {}", count(ignore, "of your misses", "of your misses"))),
                (scraps > 0).then(|| format!("earns you {}", count(scraps, "scrap", "scraps"))),
                (pierce > 0).then(|| format!("ignores {} of the Enemy", count(pierce, "shield", "shields"))),
            ]
            .into_iter()
            .flatten()
            .collect();
            if parts.is_empty() {
                "specials you roll bring no bonus".into()
            } else {
                format!("each special you roll in an attack {}", list(&parts))
            }
        }
        ModuleEffect::AttackHits { hits } => format!("{} on every attack", count(hits, "more hit", "more hits")),
        ModuleEffect::StartRegen { amount } => format!("recover {amount} health at the start of your turn"),
        ModuleEffect::Cloak => "your Detection Rolls ignore one miss for the rest of this turn".into(),
        ModuleEffect::ScrapOnReveal => "gain 1 scrap for each system your group reveals".into(),
        ModuleEffect::ScrapOnExplore => "gain 1 scrap for each Explore action, at Signals and the Main Rift too".into(),
        ModuleEffect::FreeProbe => "reveal a system next to the one you are in".into(),
        ModuleEffect::SkillBonus { amount } => {
            format!("{} on your Skill Rolls", count(amount, "more special", "more specials"))
        }
        ModuleEffect::SoloExtraAction => "take one more Action this turn if you are not in a fleet".into(),
        ModuleEffect::RushShield => "this turn your Hyperspace Rush may pass Avatars, if you are not in a fleet".into(),
        ModuleEffect::SpecialReroll { fleet } => format!(
            "spend one of your specials to reroll another die {}, up to twice per attack",
            if fleet { "of any ship in your fleet" } else { "of yours" }
        ),
        ModuleEffect::PayScrapReroll { dice: 1, fleet: false } => "lose 1 scrap to reroll one of your dice".into(),
        ModuleEffect::PayScrapReroll { dice: 1, fleet: true } => {
            "lose 1 scrap to reroll one die of any ship in your fleet".into()
        }
        ModuleEffect::PayScrapReroll { dice, fleet } => format!(
            "lose 1 scrap per die to reroll up to {dice} {} in this attack",
            if fleet { "dice of ships in your fleet" } else { "of your dice" }
        ),
        ModuleEffect::ModuleDiscount { amount } => {
            format!("modules cost you {} less at Allies", count(amount, "scrap", "scraps"))
        }
        ModuleEffect::Decoy { pacify: false } => "shuffle an Enemy you are engaged with back into the deck".into(),
        ModuleEffect::Decoy { pacify: true } => "shuffle an Enemy you are engaged with back into the deck; once \
                                                 every Enemy there is sent back, the system is pacified"
            .into(),
        ModuleEffect::SplitFromFleet => "when your fleet's turn ends, you may go on alone".into(),
        ModuleEffect::FleetScavenger => "when your group Scavenges, every ship of it gains one more scrap".into(),
        ModuleEffect::DroneRepair { ships } => format!(
            "pay 1 scrap to repair 1 health on {} in your system",
            if ships == 1 { "one ship".to_string() } else { format!("up to {ships} ships") }
        ),
        ModuleEffect::RemoteRepair { amount } => format!("repair {amount} health on a ship anywhere on the board"),
        ModuleEffect::DamageRollShield { fleet: false } => "your Damage Rolls ignore one miss".into(),
        ModuleEffect::DamageRollShield { fleet: true } => {
            "the Damage Rolls of every ship in your fleet ignore one miss".into()
        }
        ModuleEffect::StrainRecovery => {
            "a Strain Damage Roll showing a special gives the Strain back (two specials give back only the one), up to three times a turn (games created before rules revision 4 need two specials)".into()
        }
        ModuleEffect::FleetEnergy { amount } => format!("each ship of your group recovers {amount} energy"),
        ModuleEffect::IgnoreShields => "the Enemy's shields are ignored for this attack".into(),
        ModuleEffect::CancelAbility => "the Enemy's ability does not trigger during this attack".into(),
        ModuleEffect::BonusEnergy => "you have one more energy marker, at no cost".into(),
    }
}
