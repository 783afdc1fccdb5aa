//! Modules (rulebook pp. 13 and 15: special rules of mods and modules),
//! Allies and Trade (pp. 7-8, FAQ "Alliés" and Trade), sharing rewards
//! (p. 11).

use super::*;
use crate::content::{Face, ModuleEffect};
use crate::decision::Choice;
use crate::event::RollPurpose;

fn module_index(id: &str) -> u8 {
    Content::get().modules.iter().position(|m| m.id == id).expect("module id") as u8
}

/// Seat 0 engaged with a Harrow Titan (regenerates) at (1,0), carrying modules.
fn armed(modules: &[&str]) -> Game {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.pb.ships[0].modules = modules.iter().map(|m| module_index(m)).collect();
    g.pb.ships[0].energy_total = 3;
    g.begin(0);
    g.act(0, "jump:1,0");
    g.put_enemy("harrow_titan", h(1, 0));
    g.act(0, "engage");
    g.act(0, "attack:enemy:0");
    g
}

fn after_roll(g: &Game) -> &Vec<SeatRoll> {
    match &g.pb.pending {
        Pending::AfterRoll { rolls, .. } => rolls,
        p => panic!("expected the after-roll step, got {p:?}"),
    }
}

#[test]
fn p15_each_die_rerolled_at_most_once_and_each_module_once_per_attack() {
    let g = armed(&["targeting_array", "gyro_stabiliser"]);
    let (mut g, _) = find(&g, 0, "offense:0", |g, _| matches!(g.pb.pending, Pending::AfterRoll { .. }));
    let ta = module_index("targeting_array");
    g.act(0, &format!("activate:0:module{ta}:0:0"));
    assert!(after_roll(&g)[0].dice[0].rerolled);
    assert_eq!(g.ship(0).energy_used, 1, "an energy module flips a marker");
    let ids = g.ids();
    assert!(!ids.iter().any(|i| i.starts_with(&format!("activate:0:module{ta}"))), "once per attack");
    let gy = module_index("gyro_stabiliser");
    assert!(!ids.contains(&format!("activate:0:module{gy}:0:0")), "the rerolled die cannot be rerolled again");
    assert!(ids.contains(&format!("activate:0:module{gy}:0:1")));
}

#[test]
fn p15_a_die_used_to_trigger_an_effect_can_be_neither_rerolled_nor_ignored() {
    let g = armed(&["flak_battery", "targeting_array"]);
    let (mut g, _) = find(
        &g,
        0,
        "offense:0",
        |g, _| matches!(&g.pb.pending, Pending::AfterRoll { rolls, .. } if rolls[0].dice.iter().any(|d| d.face == Face::Special)),
    );
    let d = after_roll(&g)[0].dice.iter().position(|d| d.face == Face::Special).unwrap();
    let fb = module_index("flak_battery");
    g.act(0, &format!("activate:0:module{fb}:0:{d}"));
    assert_eq!(after_roll(&g)[0].bonus_hits, 2);
    let ta = module_index("targeting_array");
    assert!(!g.ids().contains(&format!("activate:0:module{ta}:0:{d}")));
}

#[test]
fn p15_ignored_miss_triggers_no_retaliation_and_faq_no_enemy_ability() {
    // Ravager Cruiser: swarm on one miss (+1). Ignoring the only miss avoids both.
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.pb.ships[0].modules = vec![module_index("deflector_screen")];
    g.begin(0);
    g.act(0, "jump:1,0");
    g.put_enemy("ravager_cruiser", h(1, 0));
    g.act(0, "engage");
    g.act(0, "attack:enemy:0");
    let (mut g, _) = find(&g, 0, "offense:0", |g, _| {
        matches!(&g.pb.pending, Pending::AfterRoll { rolls, .. }
            if rolls[0].dice.iter().filter(|d| d.face == Face::Miss).count() == 1)
    });
    let d = after_roll(&g)[0].dice.iter().position(|d| d.face == Face::Miss).unwrap();
    let m = module_index("deflector_screen");
    let hp = g.ship(0).health;
    // Nothing else can act on the dice: the attack resolves at once.
    let ev = g.act(0, &format!("activate:0:module{m}:0:{d}"));
    assert!(!ev.iter().any(|e| matches!(e, Event::HealthLost { .. })));
    assert_eq!(g.ship(0).health, hp);
}

#[test]
fn p13_consumable_modules_are_discarded_after_use() {
    let g = armed(&["overcharged_coils"]);
    let (mut g, _) = find(&g, 0, "offense:0", |g, _| matches!(g.pb.pending, Pending::AfterRoll { .. }));
    let m = module_index("overcharged_coils");
    g.act(0, &format!("activate:0:module{m}"));
    assert!(g.ship(0).modules.is_empty());
    assert!(g.pb.module_discard.contains(&m));
}

#[test]
fn p13_passive_modules_always_apply() {
    let c = Content::get();
    assert!(matches!(c.modules[module_index("hardened_plating") as usize].effect, ModuleEffect::Armor { amount: 1 }));
    let g = armed(&["hardened_plating"]);
    let (g, ev) = find(&g, 0, "offense:0", |_, ev| {
        rolls(ev, RollPurpose::Attack)[0].iter().filter(|f| **f == Face::Miss).count() == 1
    });
    let lost: u8 =
        ev.iter().filter_map(|e| if let Event::HealthLost { amount, .. } = e { Some(*amount) } else { None }).sum();
    assert_eq!(lost, 0, "one miss minus one armour");
    assert!(matches!(g.pb.pending, Pending::CombatCommand));
}

#[test]
fn p13_modules_used_during_the_turn_cost_no_action() {
    let mut g = game4();
    g.pb.ships[0].modules = vec![module_index("afterburner")];
    g.begin(0);
    let m = module_index("afterburner");
    g.act(0, &format!("activate:0:module{m}"));
    assert_eq!(g.ship(0).actions_left, 4);
    assert_eq!(g.energy_available(0), 0);
    assert!(!g.ids().contains(&format!("activate:0:module{m}")), "once per turn");
}

#[test]
fn p08_an_ally_is_drawn_when_a_ship_first_enters_its_system() {
    let mut g = game4();
    g.put_tile("A01", h(1, 0)); // Ally symbol
    g.begin(0);
    let ev = g.act(0, "jump:1,0");
    assert!(ev.iter().any(|e| matches!(e, Event::AllyMet { .. })));
    assert_eq!(g.pb.allies.len(), 1);
    assert!(g.config.allies.contains(&g.pb.allies[0].kind), "FAQ: one of the two Allies chosen at setup");
    let offer = Content::get().allies[g.pb.allies[0].kind as usize].offer;
    assert_eq!(g.pb.allies[0].offer.len(), (offer.ship_modules + offer.precursor_modules) as usize);
}

#[test]
fn p07_trade_one_action_fleet_pools_scraps_and_chooses_the_receiver() {
    let mut g = game4();
    g.put_tile("A01", h(1, 0));
    g.pb.ships[0].scraps = 3;
    g.pb.ships[1].scraps = 5;
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "jump:1,0");
    g.act(0, "trade");
    let acts = g.group_actions();
    let m = g.pb.allies[0].offer[0];
    let price = g.decision().options.iter().find_map(|o| match o.choice {
        Choice::Buy { item: 0, receiver: 0 } => Some(o.label.clone()),
        _ => None,
    });
    assert!(price.is_some(), "the pooled 8 scraps afford the first module");
    let before = g.ship(0).scraps + g.ship(1).scraps;
    g.act(1, "buy:0:0");
    assert!(g.ship(0).modules.contains(&m));
    assert!(g.ship(0).scraps + g.ship(1).scraps < before);
    // FAQ: with the Ally on this action, no exchange between ships.
    assert!(!g.ids().iter().any(|i| i.starts_with("give_")));
    g.act(0, "end_trade");
    assert_eq!(g.group_actions(), acts, "one Action however many purchases");
}

#[test]
fn faq_trade_with_ships_excludes_the_ally_on_the_same_action() {
    let mut g = game4();
    g.put_tile("A01", h(1, 0));
    g.pb.ships[0].scraps = 9;
    g.put_ship(1, h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    g.act(0, "trade");
    g.act(0, "give_scraps:0:1:1");
    assert!(!g.ids().iter().any(|i| i.starts_with("buy:") || i.starts_with("ally_")));
    assert_eq!(g.ship(1).scraps, 2, "only the active side spends an Action; the other ship may have played");
}

/// Captains 0 and 1 in a fleet, captains 2 and 3 outside it, all in the
/// Starting System with scraps; captain 0 starts a Trade and makes the
/// exchange `first`. Returns the Trade's options then. Rules revision
/// `revision`.
pub(super) fn trade_options_after(revision: u32, first: &str) -> Vec<String> {
    let mut g = game4_at(revision);
    for s in 0..4 {
        g.pb.ships[s].scraps = 5;
    }
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "trade");
    g.act(0, first);
    g.ids()
}

/// FAQ, Flottes (p. 6 and p. 7): "Les joueurs d'une Flotte doivent tous
/// effectuer la même action sur la même cible"; trading among themselves
/// "la cible est la flotte elle-même", and with a player outside the fleet
/// "ils peuvent échanger avec ce joueur ou avec l'allié, mais pas les deux".
/// So one Trade has one target, set by its first exchange: the fleet
/// itself, one outside captain, or the Ally (rules revision 4).
#[test]
fn faq_fleets_one_trade_has_one_target_set_by_its_first_exchange() {
    let with_outside = |ids: &[String], o: u8| {
        ids.iter().any(|i| i.starts_with(&format!("give_scraps:{o}:")) || i.ends_with(&format!(":{o}:1")))
    };
    // Among the fleet: more exchanges inside it, none with captains 2, 3.
    let ids = trade_options_after(crate::RULES_REVISION, "give_scraps:0:1:1");
    assert!(ids.contains(&"give_scraps:1:0:1".to_string()), "{ids:?}");
    assert!(!with_outside(&ids, 2) && !with_outside(&ids, 3), "{ids:?}");
    // With captain 2: exchanges with 2 only, from either fleet member.
    let ids = trade_options_after(crate::RULES_REVISION, "give_scraps:0:2:1");
    for id in ["give_scraps:2:0:1", "give_scraps:1:2:1", "give_scraps:2:1:1"] {
        assert!(ids.contains(&id.to_string()), "{id} in {ids:?}");
    }
    assert!(!ids.contains(&"give_scraps:0:1:1".to_string()) && !with_outside(&ids, 3), "{ids:?}");
    assert!(ids.contains(&"end_trade".to_string()));
}

/// p. 7, Trade: "trade Scraps, Ship Modules, Precursor Ship Modules and
/// Precursor Key markers with ships in your system". The FAQ's one target
/// binds a fleet; a captain trading alone may still trade with every ship
/// there within one Trade.
#[test]
fn p07_a_captain_trading_alone_trades_with_every_ship_in_the_system() {
    let mut g = game4();
    for s in 0..4 {
        g.pb.ships[s].scraps = 5;
    }
    g.begin(0);
    g.act(0, "trade");
    g.act(0, "give_scraps:0:2:1");
    let ids = g.ids();
    for id in ["give_scraps:0:3:1", "give_scraps:3:0:1", "give_scraps:1:0:1"] {
        assert!(ids.contains(&id.to_string()), "{id} in {ids:?}");
    }
}

#[test]
fn p07_salvage_a_module_for_its_value_minus_one() {
    let mut g = game4();
    let m = module_index("plasma_lance");
    g.pb.ships[0].modules = vec![m];
    g.begin(0);
    g.act(0, "maintenance");
    g.act(0, &format!("salvage:{m}"));
    assert_eq!(g.ship(0).scraps, 1 + Content::get().modules[m as usize].price - 1);
    assert!(g.ship(0).modules.is_empty());
}

#[test]
fn p11_found_modules_are_free_and_the_fleet_chooses_who_takes_them() {
    let mut g = game4();
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    let mut ev = Vec::new();
    g.apply_effect(crate::content::Effect::GainModule, &[0, 1], Hex::ORIGIN, &mut ev);
    g.settle(&mut ev);
    assert!(matches!(pending(&g), Pending::GiveModule { .. }));
    g.act(0, "receive_module:1");
    assert_eq!(g.ship(1).modules.len(), 1);
    assert_eq!(g.ship(1).scraps, 1, "no price paid");
}

#[test]
fn p11_fleet_members_decide_how_to_share_scraps() {
    let mut g = game4();
    g.begin(0);
    g.act(0, "invite:3");
    g.act(3, "accept");
    let mut ev = Vec::new();
    g.apply_effect(crate::content::Effect::GainScraps { amount: 3 }, &[0, 3], Hex::ORIGIN, &mut ev);
    g.settle(&mut ev);
    for _ in 0..3 {
        g.act(0, "scrap_to:3");
    }
    assert_eq!((g.ship(0).scraps, g.ship(3).scraps), (1, 4));
}

#[test]
fn faq_trapped_ally_brings_an_ally_not_chosen_at_setup() {
    let mut g = game4();
    let mut ev = Vec::new();
    g.new_ally_here(Hex::ORIGIN, &mut ev);
    assert_eq!(g.pb.allies.len(), 1);
    assert!(!g.config.allies.contains(&g.pb.allies[0].kind));
}

/// Captain 1 plays first (nothing but ending its turn) holding Key 2 and
/// a Sensor Baffles module; then captain 0, on the same system, trades
/// under `revision`. Returns the game in the Trade decision.
pub(super) fn trade_with_a_captain_who_already_played(revision: Option<u32>) -> (Game, u8) {
    let mut g = game4();
    g.config.rules_revision = revision;
    let m = Content::get().modules[0].clone();
    let m = module_index(&m.id);
    g.pb.ships[1].keys = vec![2];
    g.pb.ships[1].modules = vec![m];
    g.begin(1);
    g.act(1, "end_turn");
    assert!(g.ship(1).played);
    g.begin(0);
    g.act(0, "trade");
    (g, m)
}

#[test]
fn p07_trade_with_a_ship_that_already_played_gives_keys_and_modules() {
    // p. 7: Trade exchanges "Scraps, Ship Modules, Precursor Ship Modules
    // and Precursor Key markers with ships in your system", and "only the
    // active player or fleet has to spend an action, so you can trade with
    // someone who already played".
    let (mut g, m) = trade_with_a_captain_who_already_played(Some(crate::RULES_REVISION));
    let key = g.decision().options.into_iter().find(|o| o.id == "give_key:1:0:2").expect("the Key is offered");
    assert_eq!(key.seats, vec![1], "the giver decides");
    g.act(1, "give_key:1:0:2");
    g.act(1, &format!("give_module:1:0:{m}"));
    assert_eq!(g.ship(0).keys, vec![2]);
    assert!(g.ship(0).modules.contains(&m) && g.ship(1).modules.is_empty());
}

#[test]
fn allies_specialised_engineer_repairs_one_health_for_each_scrap() {
    // The project's Ally card (content/allies.toml, Specialised Engineer):
    // "repair 1 health for each scrap paid" (rules revision 3; before, the
    // engine repaired 2 for a scrap). The option can be taken again within
    // the same Trade, one scrap at a time.
    let repair = |revision: u32| {
        let mut g = game4_at(revision);
        g.pb.allies.push(AllyInPlay {
            kind: crate::config::AllyKind::SpecialisedEngineer,
            hex: Hex::ORIGIN,
            offer: vec![],
        });
        g.pb.ships[0].health -= 3;
        g.pb.ships[0].scraps = 2;
        g.begin(0);
        g.act(0, "trade");
        let before = g.ship(0).health;
        g.act(0, "ally_skill:0");
        let once = g.ship(0).health - before;
        if revision >= 3 {
            g.act(0, "ally_skill:0");
        }
        (once, g.ship(0).health - before, g.ship(0).scraps)
    };
    assert_eq!(repair(crate::RULES_REVISION), (1, 2, 0), "a health a scrap, twice in one Trade");
    assert_eq!(repair(2).0, 2, "rules revision 2 replays as it was played");
}

#[test]
fn p16_an_energy_marker_discarded_for_good_is_not_bought_back_at_its_old_price() {
    // p. 16, Avatar abilities: energy markers are discarded for good,
    // "from the rightmost part of the mat"; the slot stays empty, so the
    // next marker bought costs the next slot's price, and a ship that lost
    // its only marker does not get the free first one back (rules revision
    // 3; before, Ship Maintenance sold it again for nothing).
    let after_loss = |revision: u32| {
        let mut g = game4_at(revision);
        g.pb.ships[0].scraps = 0;
        let mut ev = Vec::new();
        g.discard_energy_marker(0, &mut ev);
        g.begin(0);
        let maintenance = g.ids().contains(&"maintenance".to_string());
        (maintenance, g.next_energy_cost(0), g)
    };
    let (maintenance, cost, _) = after_loss(crate::RULES_REVISION);
    let costs = &Content::get().ship(ShipKind::Warship).energy_costs;
    assert!(!maintenance, "nothing to maintain with no scraps");
    assert_eq!(cost, costs.get(1).copied(), "the lost slot stays empty");
    let (maintenance, cost, _) = after_loss(2);
    assert!(maintenance && cost == Some(costs[0]), "rules revision 2 replays as it was played");
}

#[test]
fn allies_a_skill_is_offered_only_when_it_has_something_to_act_on() {
    // The Mercenary's skill pacifies an Enemy system anywhere (the
    // project's card): with none revealed, paying for it would buy nothing,
    // so it is not offered (rules revision 3; before, it was, and its
    // decision then held only "pacify no more systems").
    let mercenary_offered = |revision: u32, enemy_system: bool| {
        let mut g = game4_at(revision);
        if enemy_system {
            g.put_tile("E01", h(2, 0));
        }
        g.pb.allies.push(AllyInPlay { kind: crate::config::AllyKind::Mercenary, hex: Hex::ORIGIN, offer: vec![] });
        g.pb.ships[0].scraps = 9;
        g.begin(0);
        g.act(0, "trade");
        g.ids().iter().any(|i| i.starts_with("ally_skill:"))
    };
    assert!(!mercenary_offered(crate::RULES_REVISION, false), "nothing to pacify");
    assert!(mercenary_offered(crate::RULES_REVISION, true));
    assert!(mercenary_offered(2, false), "rules revision 2 replays as it was played");
}

#[test]
fn damaged_brittle_hull_adds_a_loss_only_when_retaliation_gets_through_armour() {
    // The project's Damaged card (content/damaged.toml, brittle_hull): "one
    // more health lost whenever retaliation hits the ship". Armour takes
    // off retaliation first; one miss against Hardened Plating (armour 1)
    // does not hit, so the brittle hull adds nothing (rules revision 3;
    // before, the extra loss came first and armour took one off after).
    let lost_to_one_miss = |revision: u32| {
        let mut g = armed(&["hardened_plating"]);
        g.config.rules_revision = Some(revision);
        let leaking = Content::get().damaged.iter().position(|d| d.id == "leaking_hull").expect("card") as u8;
        g.pb.ships[0].damaged = vec![leaking];
        g.pb.ships[0].health = 30;
        g.pb.ships[0].max_health = 30;
        let (g, _) = find(&g, 0, "offense:0", |g, ev| {
            !matches!(g.pb.pending, Pending::AfterRoll { .. })
                && rolls(ev, RollPurpose::Attack)
                    .first()
                    .is_some_and(|d| d.iter().filter(|f| **f == Face::Miss).count() == 1)
        });
        30 - g.ship(0).health
    };
    assert_eq!(lost_to_one_miss(crate::RULES_REVISION), 0);
    assert_eq!(lost_to_one_miss(2), 1, "rules revision 2 replays as it was played");
}

fn misses_rolled(g: &Game, n: usize) -> bool {
    matches!(&g.pb.pending, Pending::AfterRoll { rolls, .. }
        if rolls[0].dice.iter().filter(|d| d.face == Face::Miss).count() == n)
}

#[test]
fn modules_ignoring_two_misses_ignore_two_and_a_consumable_lasts_the_attack() {
    // The project's modules (content/modules.toml): Ablative Foam
    // (consumable) and Precursor Aegis (energy) ignore 2 misses. Each
    // activation takes one chosen miss, twice, paid once; the foam is
    // discarded when the attack resolves (rules revision 3; before, one
    // miss only, the foam gone at the first).
    for (module, consumable) in [("ablative_foam", true), ("precursor_aegis", false)] {
        let g = armed(&[module]);
        let (mut g, _) = find(&g, 0, "offense:0", |g, _| misses_rolled(g, 2));
        let m = module_index(module);
        let energy = g.ship(0).energy_used;
        g.act(0, &format!("activate:0:module{m}:0:0"));
        assert!(g.ids().contains(&format!("activate:0:module{m}:0:1")), "{module}: the second miss too");
        assert!(g.ship(0).modules.contains(&m), "{module}: still there for the second miss");
        // Nothing is left to use on the dice: the attack resolves at once,
        // with no retaliation since both misses are ignored.
        let ev = g.act(0, &format!("activate:0:module{m}:0:1"));
        assert!(matches!(pending(&g), Pending::CombatCommand), "{module}: {:?}", pending(&g));
        assert!(!ev.iter().any(|e| matches!(e, Event::HealthLost { seat: 0, .. })), "{module}: both misses ignored");
        assert_eq!(g.ship(0).energy_used, energy + u8::from(!consumable), "{module}: paid once");
        assert_eq!(g.ship(0).modules.contains(&m), !consumable, "{module}: a consumable is gone after the attack");
    }
    let g = armed(&["ablative_foam"]);
    let mut g2 = g.clone();
    g2.config.rules_revision = Some(2);
    let (mut g2, _) = find(&g2, 0, "offense:0", |g, _| misses_rolled(g, 2));
    let m = module_index("ablative_foam");
    g2.act(0, &format!("activate:0:module{m}:0:0"));
    assert!(!g2.ship(0).modules.contains(&m), "rules revision 2 replays as it was played");
}

#[test]
fn modules_rerolling_two_dice_reroll_the_chosen_ones() {
    // Spare Rounds and the Fate Engine (content/modules.toml): "reroll up
    // to 2 of your dice": the captain picks each die, a hit can be kept,
    // and a third die is never rerolled too (rules revision 3; before,
    // every die was rerolled at once).
    let g = armed(&["fate_engine"]);
    let (mut g, _) = find(&g, 0, "offense:0", |g, _| {
        matches!(&g.pb.pending, Pending::AfterRoll { rolls, .. }
            if rolls[0].dice[0].face == Face::Hit && rolls[0].dice[1].face == Face::Miss)
    });
    if let Pending::AfterRoll { rolls, .. } = &mut g.pb.pending {
        let third = rolls[0].dice[1].clone();
        rolls[0].dice.push(third);
    }
    let m = module_index("fate_engine");
    let mine: Vec<String> = g.ids().into_iter().filter(|i| i.contains(&format!("module{m}"))).collect();
    assert_eq!(mine, (0..3).map(|d| format!("activate:0:module{m}:0:{d}")).collect::<Vec<_>>());
    let ev = g.act(0, &format!("activate:0:module{m}:0:1"));
    assert_eq!(rolls(&ev, RollPurpose::Attack).len(), 1, "only the chosen die");
    assert_eq!(after_roll(&g)[0].dice[0].face, Face::Hit, "the hit was kept");
    let ev = g.act(0, &format!("activate:0:module{m}:0:2"));
    assert_eq!(rolls(&ev, RollPurpose::Attack).len(), 1);
    assert!(!g.ids().iter().any(|i| i.contains(&format!("module{m}"))), "two dice at most");

    let mut old = armed(&["fate_engine"]);
    old.config.rules_revision = Some(2);
    let (old, _) = find(&old, 0, "offense:0", |g, _| matches!(g.pb.pending, Pending::AfterRoll { .. }));
    let mine: Vec<String> = old.ids().into_iter().filter(|i| i.contains(&format!("module{m}"))).collect();
    assert_eq!(mine, vec![format!("activate:0:module{m}")], "rules revision 2: every die at once");
}

#[test]
fn p15_misses_counted_as_hits_can_be_neither_ignored_nor_rerolled() {
    // p. 15: "you can't reroll or ignore a die if you used it to trigger
    // another mod or module during this attack": the misses Damage
    // Convectors count as hits are used (rules revision 3).
    let mut g = armed(&["deflector_screen"]);
    let convectors = Content::get().mod_effects.iter().position(|m| m.id == "damage_convectors").expect("mod") as u8;
    g.pb.ships[0].mods = vec![convectors];
    g.pb.ships[0].energy_total = 4;
    let (mut g, _) = find(&g, 0, "offense:0", |g, _| misses_rolled(g, 1));
    let d = after_roll(&g)[0].dice.iter().position(|d| d.face == Face::Miss).expect("a miss");
    let screen = module_index("deflector_screen");
    assert!(g.ids().contains(&format!("activate:0:module{screen}:0:{d}")), "before: the miss may be ignored");
    let mut old = g.clone();
    old.config.rules_revision = Some(2);
    old.act(0, &format!("activate:0:mod{convectors}"));
    assert!(
        old.ids().contains(&format!("activate:0:module{screen}:0:{d}")),
        "rules revision 2 replays as it was played"
    );
    let ev = g.act(0, &format!("activate:0:mod{convectors}"));
    // With the miss no longer free, nothing is left to use: the attack
    // resolves, the miss retaliating.
    assert!(!g.ids().contains(&format!("activate:0:module{screen}:0:{d}")), "after: it triggered the mod");
    assert!(matches!(pending(&g), Pending::CombatCommand), "{:?}", pending(&g));
    assert!(ev.iter().any(|e| matches!(e, Event::HealthLost { seat: 0, .. })), "the miss was not ignored");
}

#[test]
fn p15_the_turn_waits_for_a_module_that_costs_no_action() {
    // p. 15: "Activating a module usually doesn't cost an Action"; p. 6
    // only asks a player to spend all their Actions before another plays.
    // With no Action left but a Repair Kit usable, the turn does not end by
    // itself: the captain may use it, then end the turn (rules revision 3;
    // before, the turn closed at the last Action).
    let after_last_action = |revision: u32| {
        let mut g = game4_at(revision);
        let m = module_index("repair_kit");
        g.pb.ships[0].modules = vec![m];
        g.pb.ships[0].health -= 2;
        g.begin(0);
        g.pb.ships[0].strained = true;
        g.pb.ships[0].actions_left = 1;
        let ev = g.act(0, "scavenge");
        (g, ev, m)
    };
    let (mut g, ev, m) = after_last_action(crate::RULES_REVISION);
    assert!(!ev.iter().any(|e| matches!(e, Event::TurnEnded { .. })));
    // Inviting is no Action either (FAQ, Flottes; rules revision 4), so the
    // captains here who have not played may still be asked to join.
    let invites: Vec<String> = (1..4).map(|s| format!("invite:{s}")).collect();
    assert_eq!(g.ids(), [invites, vec![format!("activate:0:module{m}"), "end_turn".to_string()]].concat());
    let health = g.ship(0).health;
    let ev = g.act(0, &format!("activate:0:module{m}"));
    assert!(g.ship(0).health > health, "repaired");
    assert!(ev.iter().any(|e| matches!(e, Event::TurnEnded { seat: 0 })), "nothing left to do: the turn ends");
    let (_, ev, _) = after_last_action(2);
    assert!(ev.iter().any(|e| matches!(e, Event::TurnEnded { seat: 0 })), "rules revision 2 replays as it was played");
}

/// Captain 0 starts its turn where `at` puts it, every ship without scraps,
/// modules or Keys (with `scraps`, captain 1 keeps that many), and the
/// options are returned. Rules revision `revision`.
pub(super) fn action_ids_with_nothing_to_trade(revision: u32, ally: bool, scraps: u8) -> Vec<String> {
    let mut g = game4_at(revision);
    for s in &mut g.pb.ships {
        s.scraps = 0;
        s.modules.clear();
        s.keys.clear();
    }
    g.pb.ships[if ally { 0 } else { 1 }].scraps = scraps;
    if ally {
        g.put_tile("A01", h(1, 0));
        g.begin(0);
        g.act(0, "jump:1,0");
    } else {
        g.begin(0);
    }
    g.ids()
}

/// p. 7: a Trade buys modules from an Ally, or exchanges scraps, modules
/// and Keys with ships in the system. From rules revision 5 it is offered
/// only when one such exchange is possible; before, an Ally or another
/// ship in the system was enough, with nothing to exchange.
#[test]
fn p07_trade_is_offered_only_when_an_exchange_is_possible() {
    let trade = |ids: Vec<String>| ids.contains(&"trade".to_string());
    // The Starting System, four ships with nothing to give.
    assert!(!trade(action_ids_with_nothing_to_trade(crate::RULES_REVISION, false, 0)));
    assert!(trade(action_ids_with_nothing_to_trade(4, false, 0)), "revision 4 replays as it was played");
    // A scrap another ship here could give is enough.
    assert!(trade(action_ids_with_nothing_to_trade(crate::RULES_REVISION, false, 1)));
    // An Ally whose offer the captain cannot afford, and no skill to pay.
    assert!(!trade(action_ids_with_nothing_to_trade(crate::RULES_REVISION, true, 0)));
    assert!(trade(action_ids_with_nothing_to_trade(4, true, 0)), "revision 4 replays as it was played");
    // With scraps for a module, the Ally trades.
    assert!(trade(action_ids_with_nothing_to_trade(crate::RULES_REVISION, true, 9)));
}
