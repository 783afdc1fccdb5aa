//! Combat (rulebook pp. 14-16, combat summary) and the FAQ on Enemies,
//! combat and hiding.

use super::*;
use crate::content::Face;
use crate::event::RollPurpose;

/// Seat 0 (Warship) alone, engaged with the given Enemies at (1,0).
fn fight_with(enemies: &[&str]) -> Game {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    for e in enemies {
        g.pb.board_enemies.push(BoardEnemy { card: enemy_index(e), hex: h(1, 0), damage: 0, guards_key: None });
    }
    g.act(0, "engage");
    g
}

#[test]
fn p14_offense_rolls_all_dice_defense_one_chosen_die() {
    let g = fight_with(&["watcher_drone"]);
    let mut a = g.clone();
    a.act(0, "attack:enemy:0");
    assert!(a.ids().contains(&"defense:0:red".to_string()) && a.ids().contains(&"defense:0:blue".to_string()));
    let ev = a.clone().act(0, "offense:0");
    assert_eq!(rolls(&ev, RollPurpose::Attack)[0].len(), 2);
    let ev = a.act(0, "defense:0:blue");
    assert_eq!(rolls(&ev, RollPurpose::Attack)[0].len(), 1);
}

#[test]
fn p14_combat_costs_no_action() {
    let g = fight_with(&["cultist_skiff"]);
    let before = g.ship(0).actions_left;
    let mut a = g.clone();
    a.act(0, "attack:enemy:0");
    a.act(0, "offense:0");
    assert_eq!(a.ship(0).actions_left, before);
}

#[test]
fn p15_hits_minus_shields_every_attack_and_retaliation_from_misses() {
    // Corsair Frigate: health 4, shields 1, pillage.
    let mut g = fight_with(&["corsair_frigate"]);
    g.act(0, "attack:enemy:0");
    let (g, ev) = find(&g, 0, "offense:0", |_, ev| {
        let r = &rolls(ev, RollPurpose::Attack)[0];
        r.iter().filter(|f| **f == Face::Hit).count() == 1 && r.contains(&Face::Miss)
    });
    assert_eq!(g.pb.board_enemies[0].damage, 0, "one hit minus one shield");
    let lost: u8 =
        ev.iter().filter_map(|e| if let Event::HealthLost { amount, .. } = e { Some(*amount) } else { None }).sum();
    assert_eq!(lost, 1, "one miss, one retaliation");
    assert_eq!(g.ship(0).scraps, 0, "pillage: the retaliated ship loses a scrap");
}

#[test]
fn p15_defeated_enemy_does_not_retaliate_and_pays_scraps_per_level_to_each_member() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "jump:1,0");
    g.pb.board_enemies.push(BoardEnemy {
        card: enemy_index("corsair_frigate"),
        hex: h(1, 0),
        damage: 3,
        guards_key: None,
    });
    g.act(0, "engage");
    g.act(0, "attack:enemy:0");
    g.act(0, "offense:0");
    let (g, ev) = find(&g, 1, "offense:1", |g, ev| {
        g.pb.board_enemies.is_empty() && rolls(ev, RollPurpose::Attack).iter().any(|r| r.contains(&Face::Miss))
    });
    assert!(!ev.iter().any(|e| matches!(e, Event::HealthLost { .. })), "no retaliation");
    assert_eq!((g.ship(0).scraps, g.ship(1).scraps), (3, 3), "2 scraps (level 2) each");
    assert_eq!(g.ship(0).xp, 1, "the Warship's XP for a defeated Enemy (FAQ)");
    assert!(g.pb.enemy_discard.contains(&enemy_index("corsair_frigate")), "FAQ: discarded, not shuffled back");
    assert!(g.pb.fight.is_none());
}

#[test]
fn p15_critical_miss_draws_damaged_defense_never_does() {
    let mut g = fight_with(&["harrow_titan"]);
    g.act(0, "attack:enemy:0");
    let (g2, _) = find(&g, 0, "offense:0", |_, ev| rolls(ev, RollPurpose::Attack)[0].iter().all(|f| *f == Face::Miss));
    assert_eq!(g2.ship(0).damaged.len(), 1);
    let (g3, _) =
        find(&g, 0, "defense:0:red", |_, ev| rolls(ev, RollPurpose::Attack)[0].iter().all(|f| *f == Face::Miss));
    assert!(g3.ship(0).damaged.is_empty());
}

#[test]
fn p11_damage_roll_one_miss_one_health_two_misses_two_and_damaged() {
    let mut g = game4();
    g.begin(0);
    g.act(0, "strain:0");
    let (g1, _) = find(&g, 0, "end_turn", |_, ev| {
        rolls(ev, RollPurpose::Damage).first().is_some_and(|r| r.iter().filter(|f| **f == Face::Miss).count() == 1)
    });
    assert_eq!(g1.ship(0).health, g1.ship(0).max_health - 1);
    assert!(g1.ship(0).damaged.is_empty());
    let (g2, _) = find(&g, 0, "end_turn", |_, ev| {
        rolls(ev, RollPurpose::Damage).first().is_some_and(|r| r.iter().all(|f| *f == Face::Miss))
    });
    assert_eq!(g2.ship(0).health, g2.ship(0).max_health - 2);
    assert_eq!(g2.ship(0).damaged.len(), 1);
}

#[test]
fn p15_multiple_enemies_fought_in_chosen_order_disengage_rolls_per_enemy() {
    let g = fight_with(&["cultist_skiff", "zealot_interceptor"]);
    assert!(g.ids().contains(&"attack:enemy:0".to_string()) && g.ids().contains(&"attack:enemy:1".to_string()));
    let ev = g.clone().act(0, "disengage");
    assert_eq!(rolls(&ev, RollPurpose::Damage).len(), 2, "one Damage Roll per Enemy");
}

#[test]
fn p14_pursuit_ability_applies_when_disengaging() {
    let g = fight_with(&["zealot_interceptor"]);
    let (g, ev) = find(&g, 0, "disengage", |_, ev| rolls(ev, RollPurpose::Damage)[0].iter().all(|f| *f != Face::Miss));
    let lost: u8 =
        ev.iter().filter_map(|e| if let Event::HealthLost { amount, .. } = e { Some(*amount) } else { None }).sum();
    assert_eq!(lost, 1, "pursuit costs 1 health even on a clean Damage Roll");
    assert_eq!(g.ship(0).health, g.ship(0).max_health - 1);
}

#[test]
fn faq_after_disengaging_only_jump_blind_jump_rush() {
    let mut g = fight_with(&["harrow_titan"]);
    g.put_tile("A02", h(2, 0));
    g.act(0, "disengage");
    for id in g.ids() {
        let ok = id.starts_with("jump:")
            || id.starts_with("blind_jump:")
            || id == "rush"
            || id == "end_turn"
            || id.starts_with("strain:");
        assert!(ok, "{id} is not allowed after disengaging");
    }
}

#[test]
fn faq_hiding_ends_the_turn_and_the_enemy_stays_through_the_end_phase() {
    let mut g = fight_with(&["harrow_titan"]);
    g.act(0, "disengage_hide");
    assert!(g.ship(0).played && g.ship(0).hidden);
    let mut ev = Vec::new();
    g.end_phase(&mut ev);
    assert_eq!(g.pb.board_enemies.len(), 1, "the Enemy stays where a ship hides");
    // At the next turn, detection applies as if entering the system.
    g.begin(0);
    assert!(matches!(pending(&g), Pending::Detection { .. }));
    assert!(!g.ship(0).hidden);
}

#[test]
fn p18_enemies_left_on_the_board_return_to_the_deck() {
    let mut g = fight_with(&["harrow_titan"]);
    g.act(0, "disengage");
    g.act(0, "jump:0,0");
    let mut ev = Vec::new();
    g.end_phase(&mut ev);
    assert!(g.pb.board_enemies.is_empty());
    assert!(g.hid.enemy_deck.contains(&enemy_index("harrow_titan")));
}

#[test]
fn faq_an_enemy_keeps_its_damage_until_a_new_one_takes_its_place() {
    let mut g = fight_with(&["harrow_titan"]);
    g.pb.board_enemies[0].damage = 4;
    g.act(0, "disengage");
    assert_eq!(g.pb.board_enemies[0].damage, 4, "damage kept when fleeing");
    // A new engagement elsewhere replaces it on the combat board.
    g.put_tile("E07", h(0, 1));
    g.act(0, "jump:0,0");
    g.act(0, "end_turn");
    g.begin(1);
    g.act(1, "jump:0,1");
    g.act(1, "engage");
    assert_eq!(g.pb.board_enemies.iter().find(|e| e.hex == h(1, 0)).unwrap().damage, 0);
}

#[test]
fn p15_player_defeat_token_stays_and_keys_can_be_scavenged() {
    let mut g = fight_with(&["abyssal_dreadnought"]);
    g.pb.ships[0].health = 1;
    g.pb.ships[0].keys = vec![2];
    g.act(0, "attack:enemy:0");
    let (mut g, _) = find(&g, 0, "offense:0", |g, _| g.ship(0).defeated);
    assert_eq!(g.ship(0).hex, h(1, 0));
    assert!(g.ship(0).damaged.is_empty() && g.ship(0).scraps == 0 && g.ship(0).energy_total == 0);
    assert_eq!(g.ship(0).keys, vec![2]);
    // Another captain scavenges the wreck's Key.
    g.pb.board_enemies.clear();
    g.tile_at_mut(h(1, 0)).unwrap().pacified = Some(Pacified::Green);
    g.begin(1);
    g.act(1, "jump:1,0");
    g.act(1, "scavenge_keys:0:1");
    assert_eq!(g.ship(1).keys, vec![2]);
}

#[test]
fn p07_pacify_draws_an_enemy_and_winning_pacifies() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    let (g, _) = find(&g, 0, "roll_detection", |g, _| g.pb.fight.is_none());
    let mut g = g;
    g.act(0, "pacify");
    assert_eq!(g.pb.board_enemies.len(), 1);
    g.pb.board_enemies[0].damage = 10;
    let card = g.pb.board_enemies[0].card;
    g.pb.board_enemies[0].damage = Content::get().enemies[card as usize].health - 1;
    g.act(0, "attack:enemy:0");
    let (g, _) = find(&g, 0, "offense:0", |g, _| g.pb.board_enemies.is_empty());
    assert_eq!(g.tile_at(h(1, 0)).unwrap().pacified, Some(Pacified::Green));
}

#[test]
fn p09_an_empty_enemy_deck_reshuffles_its_discard() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    let deck = std::mem::take(&mut g.hid.enemy_deck);
    g.pb.enemy_discard = deck;
    g.recount_levels();
    g.begin(0);
    g.act(0, "jump:1,0");
    let ev = g.act(0, "engage");
    assert!(ev.iter().any(|e| matches!(e, Event::EnemyDeckReshuffled)));
    assert_eq!(g.pb.board_enemies.len(), 1);
}

#[test]
fn p15_fleet_retaliation_is_individual_and_a_fallen_member_drops_out() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "invite:2");
    g.act(2, "accept");
    g.act(0, "jump:1,0");
    g.put_enemy("harrow_titan", h(1, 0));
    g.act(0, "engage");
    g.pb.ships[2].health = 1;
    g.act(0, "attack:enemy:0");
    g.act(0, "offense:0");
    let (g, ev) = find(&g, 2, "offense:2", |g, ev| {
        let r = rolls(ev, RollPurpose::Attack);
        g.ship(2).defeated && !r[0].contains(&Face::Miss)
    });
    assert!(!ev.iter().any(|e| matches!(e, Event::HealthLost { seat: 0, .. })), "seat 0 rolled no miss: no damage");
    assert_eq!(
        g.pb.fight.as_ref().map(|f| f.seats.clone()),
        Some(vec![0]),
        "the fight goes on without the fallen ship"
    );
}

#[test]
fn faq_pirate_ship_xp_for_scraps_won_in_combat() {
    let mut g = trio(ShipKind::PirateShip);
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    g.pb.board_enemies.push(BoardEnemy {
        card: enemy_index("cultist_skiff"),
        hex: h(1, 0),
        damage: 1,
        guards_key: None,
    });
    g.act(0, "engage");
    g.act(0, "attack:enemy:0");
    let (g, _) = find(&g, 0, "offense:0", |g, _| g.pb.board_enemies.is_empty());
    assert_eq!(g.ship(0).xp, 1);
    // Scavenging is not combat nor exploration: no XP.
    let mut g = g;
    g.act(0, "scavenge");
    assert_eq!(g.ship(0).xp, 1);
}

#[test]
fn faq_proto_ship_xp_for_three_hits_once_per_attack() {
    let mut g = trio(ShipKind::ProtoShip);
    g.put_tile("E01", h(1, 0));
    let coils = Content::get().modules.iter().position(|m| m.id == "overcharged_coils").unwrap() as u8;
    g.pb.ships[0].modules = vec![coils];
    g.begin(0);
    g.act(0, "jump:1,0");
    g.put_enemy("harrow_titan", h(1, 0));
    g.act(0, "engage");
    g.act(0, "attack:enemy:0");
    let (mut g, _) = find(
        &g,
        0,
        "offense:0",
        |g, _| matches!(&g.pb.pending, Pending::AfterRoll { rolls, .. } if rolls[0].dice.iter().filter(|d| d.face == Face::Hit).count() >= 1),
    );
    g.act(0, &format!("activate:0:module{coils}"));
    assert_eq!(g.ship(0).xp, 1, "three hits or more: one XP for this attack");
}

/// One Combat board: a foe left with damage in one system, then another
/// ship engages a foe already on the board elsewhere. `avatars` uses
/// Avatars 0 (at (1,0), left with 3 damage) and 1 (at (0,1)); otherwise
/// a Harrow Titan left with 3 damage at (1,0) and a Watcher Drone waiting
/// at (0,1). Returns the damage the first foe keeps.
pub(super) fn first_foe_damage_after_a_new_engagement(revision: Option<u32>, avatars: bool) -> u8 {
    let mut g = game4();
    g.config.rules_revision = revision;
    g.put_tile(if avatars { "A02" } else { "E01" }, h(1, 0));
    g.put_tile(if avatars { "A05" } else { "E07" }, h(0, 1));
    if avatars {
        g.pb.avatars.push(Avatar { card: 0, place: AvatarPlace::Board { hex: h(1, 0) }, damage: 0 });
        g.pb.avatars.push(Avatar { card: 1, place: AvatarPlace::Board { hex: h(0, 1) }, damage: 0 });
    } else {
        for (e, hex) in [("harrow_titan", h(1, 0)), ("watcher_drone", h(0, 1))] {
            g.pb.board_enemies.push(BoardEnemy { card: enemy_index(e), hex, damage: 0, guards_key: None });
        }
    }
    g.begin(0);
    g.act(0, "jump:1,0");
    if !avatars {
        g.act(0, "engage");
    }
    assert!(matches!(pending(&g), Pending::CombatCommand));
    if avatars {
        g.pb.avatars[0].damage = 3;
    } else {
        g.pb.board_enemies[0].damage = 3;
    }
    g.act(0, "disengage");
    g.pb.ships[0].health = 6;
    g.act(0, "jump:0,0");
    g.act(0, "end_turn");
    g.begin(1);
    g.act(1, "jump:0,1");
    if !avatars {
        g.act(1, "engage");
    }
    assert_eq!(g.pb.fight.as_ref().map(|f| f.hex), Some(h(0, 1)), "captain 1 fights at (0,1)");
    if avatars { g.pb.avatars[0].damage } else { g.pb.board_enemies[0].damage }
}

#[test]
fn faq_enemies_and_combats_a_new_engagement_repairs_the_replaced_foe() {
    // FAQ, "Ennemis et Combats": "si vous ou un autre joueur ou Flotte
    // engagez un nouvel Ennemi ou Avatar sur le plateau, il remplace
    // l'actuel sur le plateau de Combat, « réparant » de fait les dégâts du
    // vaisseau remplacé. Il en va de même pour les Avatars."
    let now = Some(crate::RULES_REVISION);
    assert_eq!(first_foe_damage_after_a_new_engagement(now, false), 0, "an Enemy already on the board");
    assert_eq!(first_foe_damage_after_a_new_engagement(now, true), 0, "an Avatar");
    // Whoever comes back to the foe still on the Combat board resumes.
    let mut g = fight_with(&["harrow_titan"]);
    g.pb.board_enemies[0].damage = 4;
    g.act(0, "disengage");
    g.pb.ships[0].health = 6;
    g.act(0, "end_turn");
    g.begin(1);
    g.act(1, "jump:1,0");
    g.act(1, "engage");
    assert_eq!(g.pb.board_enemies[0].damage, 4, "the fight resumes where it was left");
}

/// Captain 0 defeats a Cultist Skiff at the Enemy system (1,0) under
/// `revision`, the fight begun by a failed Detection Roll (`detected`) or
/// by engaging voluntarily. Returns whether the system is pacified.
pub(super) fn defeating_the_patrol_pacifies(revision: Option<u32>, detected: bool) -> bool {
    let mut g = game4();
    g.config.rules_revision = revision;
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    g.hid.enemy_deck.push(enemy_index("cultist_skiff"));
    let mut g = if detected {
        find(&g, 0, "roll_detection", |g, _| g.pb.fight.is_some()).0
    } else {
        g.act(0, "engage");
        g
    };
    let card = g.pb.board_enemies[0].card;
    g.pb.board_enemies[0].damage = Content::get().enemies[card as usize].health - 1;
    g.act(0, "attack:enemy:0");
    let (g, _) = find(&g, 0, "offense:0", |g, _| g.pb.board_enemies.is_empty());
    assert!(matches!(pending(&g), Pending::Action));
    g.tile_at(h(1, 0)).is_some_and(|t| t.pacified == Some(Pacified::Green))
}

#[test]
fn p09_defeating_the_enemies_pacifies_the_system_however_the_fight_began() {
    // p. 9 (Enemy systems): "If you defeat the Enemies, the System becomes
    // Pacified": after a failed Detection Roll as after engaging at will.
    let now = Some(crate::RULES_REVISION);
    assert!(defeating_the_patrol_pacifies(now, true), "detected, then victorious");
    assert!(defeating_the_patrol_pacifies(now, false), "engaged voluntarily, then victorious");
}

/// Captain 0 flees a Harrow Titan at (1,0) leaving it 4 damage; captain 1
/// slips in undetected and takes the Pacify action under `revision`.
/// Returns the Enemies in the system, with their damage.
pub(super) fn pacify_where_an_enemy_was_left(revision: Option<u32>) -> Vec<(u8, u8)> {
    let mut g = fight_with(&["harrow_titan"]);
    g.config.rules_revision = revision;
    g.pb.board_enemies[0].damage = 4;
    g.act(0, "disengage");
    g.pb.ships[0].health = 6;
    g.act(0, "jump:0,0");
    g.act(0, "end_turn");
    g.begin(1);
    g.act(1, "jump:1,0");
    let (mut g, _) = find(&g, 1, "roll_detection", |g, _| g.pb.fight.is_none());
    g.act(1, "pacify");
    assert!(g.pb.fight.as_ref().is_some_and(|f| f.pacify && f.seats == vec![1]));
    g.enemies_at(h(1, 0)).map(|i| (g.pb.board_enemies[i].card, g.pb.board_enemies[i].damage)).collect()
}

#[test]
fn p14_pacify_fights_the_enemy_already_revealed_in_the_system() {
    // p. 14: "draw an Enemy card (or use the one already revealed in the
    // system)"; FAQ, "Ennemis et Combats": whoever reaches an Enemy left
    // behind takes the fight up where it was left.
    let left = pacify_where_an_enemy_was_left(Some(crate::RULES_REVISION));
    assert_eq!(left, vec![(enemy_index("harrow_titan"), 4)], "no second Enemy; its damage kept");
}

/// Captain 0 disengages from a Harrow Titan at (1,0) and jumps on to the
/// Allied system (2,0) under `revision`. Returns the options offered there.
pub(super) fn options_after_fleeing_to_another_system(revision: Option<u32>) -> Vec<String> {
    let mut g = fight_with(&["harrow_titan"]);
    g.config.rules_revision = revision;
    g.put_tile("A02", h(2, 0));
    g.act(0, "disengage");
    g.pb.ships[0].health = 6;
    g.act(0, "jump:2,0");
    assert!(matches!(pending(&g), Pending::Action));
    g.ids()
}

#[test]
fn faq_after_disengaging_the_pursuit_ends_once_the_ship_has_left_the_system() {
    // FAQ, "Ennemis et Combats": once disengaged you may jump, blind jump
    // or rush "hors du système"; nothing else, "car l'ennemi vous poursuit
    // toujours activement". The Enemy stays on the board in the system
    // fled: once the ship has left it, nothing pursues it any more.
    let ids = options_after_fleeing_to_another_system(Some(crate::RULES_REVISION));
    assert!(ids.contains(&"explore".to_string()), "{ids:?}");
    assert!(ids.contains(&"scavenge".to_string()));
    assert!(ids.iter().any(|i| i.starts_with("probe:")));
}

#[test]
fn p15_the_damage_event_says_how_many_hits_the_shields_stopped() {
    // Corsair Frigate: shields 1. Every attack's event splits its hits into
    // damage and hits stopped by shields (p. 15, steps 6-8).
    let mut g = fight_with(&["corsair_frigate"]);
    g.act(0, "attack:enemy:0");
    let (_, ev) = find(&g, 0, "offense:0", |_, ev| {
        rolls(ev, RollPurpose::Attack)[0].iter().filter(|f| **f == Face::Hit).count() == 2
    });
    let damaged = ev.iter().find_map(|e| match e {
        Event::TargetDamaged { damage, hits, blocked, .. } => Some((*hits, *blocked, *damage)),
        _ => None,
    });
    assert_eq!(damaged, Some((2, 1, 1)), "two hits, one stopped by the shield, one damage");
    let line = ev.iter().find(|e| matches!(e, Event::TargetDamaged { .. })).map(Event::summary);
    assert_eq!(line.as_deref(), Some("corsair_frigate takes 1 damage (2 hits, 1 stopped by shields; 3 left)"));
}

/// Captains 0, 1 and 2 in (1,0) attack the Avatar `avatar`, one point from
/// defeat: 0 and 2 roll two hits each, 1 two misses; the attack resolves.
fn killing_blow(avatar: &str, revision: u32) -> Game {
    use crate::decision::Target;
    let die = |face: Face| RolledDie {
        color: crate::content::DieColor::Red,
        face,
        rerolled: false,
        used: false,
        ignored: false,
        doubled: false,
    };
    let roll =
        |seat: Seat, face: Face| SeatRoll { seat, offense: true, dice: vec![die(face), die(face)], bonus_hits: 0 };
    let mut g = game4_at(revision);
    g.put_tile("A02", h(1, 0));
    let card = Content::get().avatars.iter().position(|a| a.id == avatar).expect("avatar") as u8;
    let health = Content::get().avatars[card as usize].health;
    g.pb.avatars.push(Avatar { card, place: AvatarPlace::Board { hex: h(1, 0) }, damage: health - 1 });
    for s in 0..3 {
        g.put_ship(s, h(1, 0));
        g.pb.ships[s as usize].energy_total = 3;
    }
    g.pb.active = vec![0, 1, 2];
    let mut ev = Vec::new();
    g.start_fight(&[0, 1, 2], h(1, 0), crate::event::EngageCause::Fight, &mut ev);
    g.pb.pending = Pending::AfterRoll {
        target: Target::Avatar(0),
        rolls: vec![roll(0, Face::Hit), roll(1, Face::Miss), roll(2, Face::Hit)],
        used: vec![],
        grants: vec![],
        ignore_shields: false,
        cancel_ability: false,
        relayed: false,
    };
    g.finalize_attack(&mut ev);
    assert!(matches!(g.pb.avatars[0].place, AvatarPlace::Mat { .. } | AvatarPlace::Gone), "defeated");
    g
}

#[test]
fn p14_abilities_set_off_by_the_dice_trigger_on_the_killing_attack_too() {
    // p. 14, the attack sequence: the Enemy's abilities (step 5) come
    // before the hits are counted (6-8); only retaliation (9-11) is spared
    // when the foe falls (p. 15). So Nullify ("two misses") and Drain take
    // effect on the attack that defeats the foe, as Sunder (critical miss)
    // always did (rules revision 3; before, only Sunder did).
    let hollow = killing_blow("hollow_regent", crate::RULES_REVISION);
    assert!(hollow.ship(1).max_health < Content::get().ship(hollow.ship(1).kind).hull, "Sunder");
    let nullified = killing_blow("mother_of_static", crate::RULES_REVISION);
    assert_eq!(nullified.ship(1).energy_total, 2, "Nullify discards an energy marker for good");
    assert_eq!(nullified.ship(0).energy_total, 3, "not the ships that rolled hits");
    let old = killing_blow("mother_of_static", 2);
    assert_eq!(old.ship(1).energy_total, 3, "rules revision 2 replays as it was played");
}

/// FAQ, "Ennemis et Combats": "Si un ennemi est vaincu, il est défaussé, et
/// non pas mélangé dans le deck": the card goes to the discard and stays
/// there through the End phase, which shuffles only the Enemies left on the
/// board back into the deck.
#[test]
fn faq_enemies_and_combats_a_defeated_enemy_is_discarded_not_shuffled_back() {
    let mut g = game4();
    let skiff = enemy_index("cultist_skiff");
    g.hid.enemy_deck.retain(|&c| c != skiff);
    g.hid.enemy_reserve.retain(|&c| c != skiff);
    g.recount_levels();
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    g.pb.board_enemies.push(BoardEnemy { card: skiff, hex: h(1, 0), damage: 0, guards_key: None });
    g.act(0, "engage");
    g.act(0, "attack:enemy:0");
    let (mut g, _) = find(&g, 0, "offense:0", |g, _| g.pb.board_enemies.is_empty());
    assert_eq!(g.pb.enemy_discard, vec![skiff], "discarded");
    assert!(!g.hid.enemy_deck.contains(&skiff));
    g.pb.ships[0].health = g.pb.ships[0].max_health;
    g.act(0, "end_turn");
    for s in 1..4 {
        g.begin(s);
        g.act(s, "end_turn");
    }
    assert_eq!(g.pb.round, 2, "through the End phase");
    assert!(g.pb.enemy_discard.contains(&skiff) && !g.hid.enemy_deck.contains(&skiff), "still in the discard");
}

/// FAQ, Vaisseaux Joueurs, Warship (XP "Quand vous battez un ennemi"): in a
/// fight with several Enemies "vous gagnez 1 EXP par Ennemi", and "Les
/// Avatars sont aussi considérés comme des Ennemis".
#[test]
fn faq_warship_xp_one_per_enemy_of_a_fight_and_an_avatar_counts() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    for _ in 0..2 {
        g.pb.board_enemies.push(BoardEnemy {
            card: enemy_index("cultist_skiff"),
            hex: h(1, 0),
            damage: 1,
            guards_key: None,
        });
    }
    g.act(0, "engage");
    g.act(0, "attack:enemy:0");
    let (mut g, _) = find(&g, 0, "offense:0", |g, _| g.pb.board_enemies.len() == 1);
    g.act(0, "attack:enemy:0");
    let (g, _) = find(&g, 0, "offense:0", |g, _| g.pb.board_enemies.is_empty());
    assert_eq!(g.ship(0).xp, 2, "one XP per Enemy");
    // An Avatar defeated by the Warship and the Battlecruiser.
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.pb.avatars.push(Avatar { card: 0, place: AvatarPlace::Board { hex: h(1, 0) }, damage: 0 });
    g.pb.corruption.position = 5;
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "jump:1,0");
    g.pb.avatars[0].damage = Content::get().avatars[0].health - 1;
    g.act(0, "attack:avatar:0");
    g.act(0, "offense:0");
    let (g, _) = find(&g, 1, "offense:1", |g, _| g.pb.avatars[0].place != AvatarPlace::Board { hex: h(1, 0) });
    assert_eq!(g.ship(0).xp, 1, "an Avatar counts as an Enemy");
}
