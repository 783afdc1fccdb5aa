//! The players' side: ships and the Allies they trade with.

use super::board::class;
use xodus_engine::content::{AllyDef, AllySkill, ShipDef, XpCondition};
use xodus_engine::text::words::{count, list, paragraph};

/// An Ally.
pub fn ally(a: &AllyDef) -> String {
    let mut offer = Vec::new();
    if a.offer.ship_modules > 0 {
        offer.push(count(a.offer.ship_modules, "Ship Module", "Ship Modules"));
    }
    if a.offer.precursor_modules > 0 {
        offer.push(count(a.offer.precursor_modules, "Precursor Ship Module", "Precursor Ship Modules"));
    }
    let offer = if offer.is_empty() {
        "an Ally with no modules for sale".to_string()
    } else {
        format!("an Ally that puts {} up for sale when it is met", list(&offer))
    };
    paragraph(&[offer, skill(&a.skill)])
}

/// An Ally's skill, named.
fn skill(s: &AllySkill) -> String {
    match *s {
        AllySkill::Chart { cost } => format!(
            "Chart: during a Trade, pay {} to reveal a system anywhere on the board",
            count(cost, "scrap", "scraps")
        ),
        AllySkill::Repairs { cost } => format!(
            "Repairs: during a Trade, repair 1 health for each scrap paid, and have a Damaged card removed \
             for {}",
            count(cost, "scrap", "scraps")
        ),
        AllySkill::Muscle { cost } => format!(
            "Muscle: during a Trade, pay {} to pacify an Enemy system anywhere on the board",
            count(cost, "scrap", "scraps")
        ),
        AllySkill::Bargain { cost } => format!(
            "Bargain: every module this Ally sells costs {} less, and never less than 1 scrap",
            count(cost, "scrap", "scraps")
        ),
    }
}

/// A ship.
pub fn ship(s: &ShipDef) -> String {
    let dice: Vec<&str> = s.dice.iter().map(|d| d.as_str()).collect();
    paragraph(&[
        format!(
            "a {} ship with {} a turn and a hull of {} health; it rolls the {} dice",
            class(s.class),
            count(s.actions, "Action", "Actions"),
            s.hull,
            list(&dice)
        ),
        format!("its class opens the {} options of Exploration cards to the group it travels with", class(s.class)),
        energy(&s.energy_costs),
        format!(
            "it reaches levels 2 to 6 at {} XP, and earns 1 XP {}",
            list(&s.xp_track.iter().map(u8::to_string).collect::<Vec<_>>()),
            xp(s.xp_condition)
        ),
    ])
}

/// The prices of a ship's energy markers.
fn energy(costs: &[u8]) -> String {
    let markers = count(costs.len() as u8, "energy marker", "energy markers");
    let prices = |cs: &[u8]| list(&cs.iter().map(u8::to_string).collect::<Vec<_>>());
    match costs {
        [] => "it holds no energy markers".into(),
        [0] => format!("it holds {markers}, which is free"),
        [0, rest @ ..] => format!(
            "it holds up to {markers}: the first is free and the others cost {} scraps, in that order",
            prices(rest)
        ),
        all => format!("it holds up to {markers}, costing {} scraps in that order", prices(all)),
    }
}

/// What earns a ship XP.
fn xp(c: XpCondition) -> &'static str {
    match c {
        XpCondition::DefeatEnemy => "for each Enemy it defeats, Avatars included",
        XpCondition::Fleet => "each time it forms or joins a fleet",
        XpCondition::Explore => "for each Explore action, at Signals and the Main Rift too",
        XpCondition::ScrapsGained => "when it gains scraps in combat or exploration, once per exploration",
        XpCondition::Repair => "for each Repair action",
        XpCondition::ThreeHits => "for each attack roll with at least three hits",
    }
}
