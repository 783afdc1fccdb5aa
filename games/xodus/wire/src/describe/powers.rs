//! Powers: Ship Modules, Precursor Ship Modules and Precursor Mods, each
//! read as "when, at what cost: what it does".

use xodus_engine::content::{Activation, Content, ModDef, ModEffectDef, ModuleDef, ModuleEffect, Trigger};
use xodus_engine::text::words::{either, paragraph, sentence};

/// A Ship Module or Precursor Ship Module.
pub fn module(m: &ModuleDef) -> String {
    let kind = if m.precursor { "a Precursor Ship Module" } else { "a Ship Module" };
    paragraph(&[
        format!("{kind}, sold by Allies for {} scraps and free when found by exploring", m.price),
        power(m.activation, m.trigger, &m.effect),
    ])
}

/// One Precursor Mod effect: which ship and level offer it, and the power.
pub fn mod_effect(e: &ModEffectDef) -> String {
    let c = Content::get();
    let home = c.mods.iter().find(|m| m.effects.iter().any(|x| x.id == e.id));
    let from = match home {
        Some(m) if m.effects.len() == 1 => {
            format!("a Precursor Mod of the {}, gained at level {}", ship_name(m), m.level)
        }
        Some(m) => format!("a Precursor Mod of the {}, one of the choices offered at level {}", ship_name(m), m.level),
        None => "a Precursor Mod".to_string(),
    };
    paragraph(&[from, power(e.activation, e.trigger, &e.effect)])
}

/// A level of a ship's Precursor Mods.
pub fn mod_level(m: &ModDef) -> String {
    let each: Vec<String> = m.effects.iter().map(|e| format!("{} ({})", e.name, clause(e))).collect();
    sentence(&match each.as_slice() {
        [one] => format!("at level {}, the {} gains the Precursor Mod {one}", m.level, ship_name(m)),
        many => format!(
            "at level {}, the {}'s captain chooses one of these Precursor Mods to keep: {}",
            m.level,
            ship_name(m),
            either(many)
        ),
    })
}

/// A mod effect's power as a clause.
fn clause(e: &ModEffectDef) -> String {
    power_clause(e.activation, e.trigger, &e.effect)
}

/// The display name of the mod's ship.
fn ship_name(m: &ModDef) -> String {
    Content::get()
        .ships
        .iter()
        .find(|s| s.kind == m.ship)
        .map(|s| s.name.clone())
        .unwrap_or_else(|| m.ship.as_str().replace('_', " "))
}

/// A power as a sentence.
fn power(a: Activation, t: Trigger, e: &ModuleEffect) -> String {
    sentence(&power_clause(a, t, e))
}

/// A power as a clause: "when, at what cost: what it does".
fn power_clause(a: Activation, t: Trigger, e: &ModuleEffect) -> String {
    let when = match t {
        Trigger::BeforeAttackRoll => "before your attack roll, while manoeuvres are chosen",
        Trigger::Engaged => "while engaged, before the next attack is chosen",
        Trigger::AfterAttackRoll => "after your attack roll",
        Trigger::Action => "during your turn, without spending an Action",
        Trigger::OnDefeatEnemy => "whenever you defeat an Enemy",
        Trigger::Passive => "always active",
    };
    let cost = match a {
        Activation::Passive => None,
        Activation::Consumable => Some("discard this card"),
        Activation::Energy => Some("flip one energy marker"),
    };
    match cost {
        Some(cost) => format!("{when}, {cost}: {}", xodus_engine::text::power::clause(e)),
        None => format!("{when}: {}", xodus_engine::text::power::clause(e)),
    }
}
