//! The Corruption phase (rulebook p. 17), Avatar combat (p. 16) and the
//! FAQ's revised Avatar rules.

use super::*;
use crate::event::RollPurpose;

fn avatar_at(g: &mut Game, card: u8, hex: Hex) -> usize {
    g.pb.avatars.push(Avatar { card, place: AvatarPlace::Board { hex }, damage: 0 });
    g.pb.avatars.len() - 1
}

#[test]
fn p17_avatar_step_places_the_avatar_near_a_player_and_reinforces() {
    let mut g = game4();
    g.put_tile("C02", h(3, 0));
    g.pb.corruption.position = 3; // the next space holds an Avatar token
    let mut ev = Vec::new();
    g.advance_corruption(&mut ev);
    assert_eq!(g.pb.corruption.position, 4);
    assert_eq!(g.pb.avatars.len(), 1);
    // Closest Corrupt system to a player: the Starting System, where all ships are.
    assert_eq!(g.pb.avatars[0].place, AvatarPlace::Board { hex: Hex::ORIGIN });
    assert_eq!(g.pb.deck_levels[1], 4, "the next 4 reserve Enemies join the deck");
    // The Avatars then move: the new one already shares the players' system
    // and engages them aggressively, a Damage Roll each.
    g.move_avatars(true, false, &mut ev);
    assert_eq!(rolls(&ev, RollPurpose::Damage).len(), 4);
    assert!(g.pb.ships.iter().all(|s| s.engaged));
}

#[test]
fn p17_a_new_avatar_is_placed_without_engaging_so_a_retreating_captain_can_still_jump_away() {
    // p. 17 places a new Avatar on the Corrupt system closest to a player;
    // engaging is what Avatars do when they move (p. 17), and what players
    // meet on entering its system or at the start of their turn (FAQ
    // hiding). p. 16: giving ground to Avatars may bring a new one in the
    // middle of the Action phase; it must not pin the captain who retreats.
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    avatar_at(&mut g, 1, Hex::ORIGIN);
    for s in 1..4 {
        g.put_ship(s, h(1, 0));
    }
    g.pb.corruption.position = 3; // the next space holds an Avatar token
    let mut now = g.clone();
    // Before rules revision 2 the marker moved as the captain disengaged.
    g.config.rules_revision = Some(1);
    g.begin(0);
    assert!(matches!(pending(&g), Pending::CombatCommand));
    g.act(0, "disengage");
    assert_eq!(g.pb.corruption.position, 4);
    assert_eq!(g.avatars_at(Hex::ORIGIN).count(), 2, "the new Avatar lands where the captain retreated");
    assert!(!g.ship(0).engaged, "placing an Avatar engages nobody");
    assert!(matches!(pending(&g), Pending::Action));
    assert!(g.ids().contains(&"jump:1,0".to_string()), "the captain may still jump away");
    // Since, it moves as the last captain leaves (FAQ, Avatars).
    now.begin(0);
    now.act(0, "disengage");
    assert_eq!(now.pb.corruption.position, 3);
    now.act(0, "jump:1,0");
    assert_eq!(now.pb.corruption.position, 4);
    assert_eq!(now.avatars_at(Hex::ORIGIN).count(), 2);
    assert!(!now.ship(0).engaged && matches!(pending(&now), Pending::Action), "the captain is away, unpinned");
}

#[test]
fn p17_p18_the_red_spaces_are_the_avatar_spaces_and_only_they_reinforce() {
    // Rulebook p. 17 (a new step: its Avatar comes into play, then the
    // next 4 reserve Enemies are shuffled into the deck) and p. 18 (a red
    // box reinforces "on top of the new Avatar coming into play"); the
    // French edition p. 17: reaching a red space, place the Avatar token.
    let mut g = game4();
    let mut ev = Vec::new();
    let mut reinforced = Vec::new();
    while g.pb.corruption.position < g.pb.corruption.rise {
        let before = g.pb.deck_levels.iter().sum::<u8>();
        g.advance_corruption(&mut ev);
        if g.pb.deck_levels.iter().sum::<u8>() > before {
            reinforced.push(g.pb.corruption.position);
        }
    }
    assert_eq!(reinforced, vec![4, 8, 12], "four ships: exactly the three Avatar spaces");
    // 4 to start and 4 at each Avatar space: the 16 Enemy cards (p. 3).
    assert_eq!(g.pb.deck_levels.iter().sum::<u8>(), 16);
    assert_eq!(g.pb.reserve_levels, [0, 0, 0, 0]);
}

#[test]
fn p19_three_ships_most_level_four_enemies_never_come() {
    // Rulebook p. 19, 3-players variant: one Avatar fewer, and "most level
    // 4 Enemies won't enter the game": two reinforcements take the level 2
    // and 3 Enemies, and level 4 waits in the reserve for the strong
    // systems that draw from it.
    let mut g = trio(ShipKind::Battlecruiser);
    let mut ev = Vec::new();
    while g.pb.corruption.position < g.pb.corruption.rise {
        g.advance_corruption(&mut ev);
    }
    assert_eq!(g.pb.reserve_levels, [0, 0, 0, 4]);
}

#[test]
fn legacy_configurations_keep_the_first_mats_extra_reinforcement() {
    // Games stored before the fix replay on the mat they were played on:
    // their configuration has no `legacy_reinforcements`, which means the
    // extra space 6 (four ships) still brings 4 Enemies.
    let json = r#"{"ships":["warship","battlecruiser","explorer","drone_specialist"],"difficulty":"casual","allies":["smuggler","mercenary"],"seed":4,"nightmare":false}"#;
    let legacy: GameConfig = serde_json::from_str(json).unwrap();
    assert!(legacy.legacy_reinforcements());
    let mut g = Game::new(legacy).unwrap();
    g.pb.corruption.position = 5;
    let mut ev = Vec::new();
    g.advance_corruption(&mut ev);
    assert_eq!(g.pb.deck_levels.iter().sum::<u8>(), 8, "space 6 reinforced the old way");
    assert!(!GameConfig::random(4, 4, Difficulty::Casual).legacy_reinforcements(), "new games follow the rulebook");
}

#[test]
fn p17_advancing_from_the_rise_loses() {
    let mut g = game4();
    g.pb.corruption.position = g.pb.corruption.rise;
    let mut ev = Vec::new();
    g.advance_corruption(&mut ev);
    assert_eq!(g.outcome().map(|o| (o.won, o.cause)), Some((false, "corruption_risen".to_string())));
}

#[test]
fn p16_dimensional_escape_two_turns_ahead_or_gone_past_the_rise() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    let a = avatar_at(&mut g, 0, h(1, 0));
    g.pb.corruption.position = 5;
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "jump:1,0");
    assert!(matches!(pending(&g), Pending::CombatCommand), "entering an Avatar's system engages");
    g.pb.avatars[a].damage = Content::get().avatars[0].health - 1;
    g.act(0, &format!("attack:avatar:{a}"));
    g.act(0, "offense:0");
    let (g2, _) = find(&g, 1, "offense:1", |g, _| g.pb.avatars[a].place != AvatarPlace::Board { hex: h(1, 0) });
    assert_eq!(g2.pb.avatars[a].place, AvatarPlace::Mat { space: 7 });
    assert_eq!(g2.ship(0).scraps, 1, "no scraps from an Avatar");
    let mut g3 = g.clone();
    g3.pb.corruption.position = 14;
    let (g3, _) = find(&g3, 1, "offense:1", |g, _| g.pb.avatars[a].place != AvatarPlace::Board { hex: h(1, 0) });
    assert_eq!(g3.pb.avatars[a].place, AvatarPlace::Gone);
}

/// Rulebook p. 16 (Dimensional Escape): no scraps from an Avatar's fight,
/// from the "when you defeat an Enemy" modules and mods (Trophy Scanner,
/// Plunderer Tools) or a special's bonus (Plunderer Arsenal) either, while
/// the healing trigger (Scrap Recycler) and the XP still work (FAQ,
/// Warship: an Avatar counts as an Enemy). Rules revision 4.
#[test]
fn p16_no_scraps_from_an_avatars_fight_from_modules_and_mods_either() {
    let (scraps, healed, pirate_xp, warship_xp, announced) = pirate_defeats_an_avatar(crate::RULES_REVISION);
    assert_eq!(scraps, 1, "only the scrap the Pirate Ship had before");
    assert!(!announced, "the Plunderer Arsenal, scraps alone, is not reported as used against an Avatar");
    assert!(healed, "the Scrap Recycler still repairs");
    assert_eq!((pirate_xp, warship_xp), (0, 1), "no scraps, so no Pirate XP; the Warship's XP stays");
}

/// A Pirate Ship (1 scrap, 1 health down; Plunderer Tools and Arsenal, a
/// Trophy Scanner and a Scrap Recycler) and a Warship defeat an Avatar, the
/// Pirate's roll showing a special, under rules revision `revision`.
/// Returns the Pirate's scraps, whether it healed, both ships' XP, and
/// whether the log reported the Plunderer Arsenal used.
pub(super) fn pirate_defeats_an_avatar(revision: u32) -> (u8, bool, u8, u8, bool) {
    let c = Content::get();
    let mut g = trio(ShipKind::PirateShip);
    g.config.rules_revision = Some(revision);
    g.put_tile("A02", h(1, 0));
    let a = avatar_at(&mut g, 0, h(1, 0));
    g.pb.corruption.position = 5;
    let find_id = |list: &[&str], id: &str| list.iter().position(|x| *x == id).expect("id") as u8;
    let modules: Vec<&str> = c.modules.iter().map(|m| m.id.as_str()).collect();
    let mods: Vec<&str> = c.mod_effects.iter().map(|m| m.id.as_str()).collect();
    g.pb.ships[0].modules = vec![find_id(&modules, "trophy_scanner"), find_id(&modules, "scrap_recycler")];
    g.pb.ships[0].mods = vec![find_id(&mods, "plunderer_tools"), find_id(&mods, "plunderer_arsenal")];
    g.pb.ships[0].health -= 1;
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "jump:1,0");
    g.pb.avatars[a].damage = c.avatars[0].health - 1;
    g.act(0, &format!("attack:avatar:{a}"));
    g.act(0, "offense:0");
    let (g, ev) = find(&g, 1, "offense:1", |g, ev| {
        let pirate = ev.iter().any(|e| {
            matches!(e, Event::DiceRolled { seat: Some(0), dice, .. }
                if dice.iter().any(|d| d.1 == crate::content::Face::Special))
        });
        pirate && g.pb.avatars[a].place != AvatarPlace::Board { hex: h(1, 0) } && g.ship(0).damaged.is_empty()
    });
    let announced = ev.iter().any(|e| matches!(e, Event::PowerUsed { seat: 0, power } if power == "plunderer_arsenal"));
    let s = g.ship(0);
    (s.scraps, s.health == s.max_health, s.xp, g.ship(1).xp, announced)
}

#[test]
fn p16_disengaging_from_avatars_advances_the_corruption_once_per_system() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    avatar_at(&mut g, 0, h(1, 0));
    avatar_at(&mut g, 1, h(1, 0));
    g.pb.corruption.position = 1;
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "jump:1,0");
    g.act(0, "disengage");
    assert_eq!(g.pb.corruption.position, 1, "FAQ: not before the last player leaves");
    g.pb.ships[0].health = 6;
    g.pb.ships[1].health = 6;
    g.act(0, "jump:0,0");
    assert_eq!(g.pb.corruption.position, 2, "once, however many Avatars and captains");
}

/// Captains 0 and 1 start their turns one after the other in (1,0) with
/// Avatar 0, and captain 2 alone in (-1,0) with Avatar 1; each disengages,
/// then jumps away to the Starting System. Returns the marker's position
/// after each step: 0 disengages, 0 leaves, 1 disengages, 1 leaves (the
/// last one), 2 disengages, 2 leaves, and after the End phase whether the
/// round's record is clear.
pub(super) fn captains_leave_avatar_systems_on_separate_turns(revision: Option<u32>) -> (Vec<u8>, bool) {
    let mut g = game4();
    g.config.rules_revision = revision;
    g.put_tile("A02", h(1, 0));
    g.put_tile("A05", h(-1, 0));
    avatar_at(&mut g, 0, h(1, 0));
    avatar_at(&mut g, 1, h(-1, 0));
    g.pb.corruption.position = 1;
    g.put_ship(0, h(1, 0));
    g.put_ship(1, h(1, 0));
    g.put_ship(2, h(-1, 0));
    let mut marks = Vec::new();
    for s in 0..3 {
        g.begin(s);
        assert!(matches!(pending(&g), Pending::CombatCommand), "an Avatar here engages at the start of the turn");
        g.act(s, "disengage");
        marks.push(g.pb.corruption.position);
        g.pb.ships[s as usize].health = 6;
        g.act(s, "jump:0,0");
        marks.push(g.pb.corruption.position);
        g.act(s, "end_turn");
    }
    let mut ev = Vec::new();
    g.end_phase(&mut ev);
    let clear = g.pb.corruption.retreats_this_round.is_empty() && g.pb.corruption.retreats_waiting.is_empty();
    (marks, clear)
}

#[test]
fn p16_faq_captains_leaving_one_avatar_system_on_separate_turns_advance_it_once() {
    // p. 16 "Special rules for disengaging" and the FAQ (Avatars): "la
    // corruption augmente de 1 lorsque le dernier joueur quitte le
    // système". The marker moves once per system, when the last player
    // leaves it, even if each captain gives ground on their own turn; a
    // captain still there delays it; another system counts again, and so
    // does the next round (rules revision 2).
    let (marks, clear) = captains_leave_avatar_systems_on_separate_turns(Some(crate::RULES_REVISION));
    assert_eq!(marks, vec![1, 1, 1, 2, 2, 3]);
    assert!(clear, "a new round counts afresh");
}

#[test]
fn faq_hiding_from_an_avatar_costs_the_turn_not_the_corruption() {
    // FAQ (Avatars, hiding): hiding in the system loses the captain's turn
    // instead of the whole crew's; the marker moves when the last player
    // leaves the system, and a hidden captain has not left.
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    avatar_at(&mut g, 0, h(1, 0));
    g.pb.corruption.position = 1;
    g.put_ship(0, h(1, 0));
    g.begin(0);
    g.act(0, "disengage_hide");
    assert_eq!(g.pb.corruption.position, 1, "nobody left the system");
    assert!(g.ship(0).hidden && g.ship(0).played, "hidden, and the turn is over");
}

#[test]
fn faq_no_aggressive_engagement_when_engaging_an_avatar_in_the_action_phase() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    avatar_at(&mut g, 0, h(1, 0));
    g.begin(0);
    let ev = g.act(0, "jump:1,0");
    assert!(rolls(&ev, RollPurpose::Damage).is_empty());
}

#[test]
fn faq_avatar_targets_the_closest_player_not_hidden() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.put_tile("A06", h(2, 0));
    g.put_tile("A10", h(3, 0));
    g.put_tile("A12", h(4, 0));
    let a = avatar_at(&mut g, 0, h(4, 0));
    // Seat 0 at (3,0) is hidden; seat 1 at (1,0) is the quarry.
    g.put_ship(0, h(3, 0));
    g.pb.ships[0].hidden = true;
    g.put_ship(1, h(1, 0));
    g.put_ship(2, h(0, 0));
    g.put_ship(3, h(0, 0));
    let mut ev = Vec::new();
    // Remove rifts' shortcut: the start is Corrupt; disable its rift.
    g.pb.tiles[0].rift_disabled = true;
    g.pb.corruption.movement_this_turn = 3;
    g.move_avatars(true, false, &mut ev);
    assert_eq!(g.pb.avatars[a].place, AvatarPlace::Board { hex: h(1, 0) }, "passes the hidden ship");
    assert!(g.ship(1).engaged && !g.ship(0).engaged);
}

#[test]
fn faq_avatar_tie_goes_to_the_most_keys() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.put_tile("A06", h(-1, 0));
    g.pb.tiles[0].rift_disabled = true;
    let a = avatar_at(&mut g, 0, Hex::ORIGIN);
    g.put_ship(0, h(1, 0));
    g.put_ship(1, h(-1, 0));
    g.put_ship(2, h(1, 0));
    g.put_ship(3, h(1, 0));
    g.pb.ships[1].keys = vec![1];
    g.pb.corruption.movement_this_turn = 3;
    let mut ev = Vec::new();
    g.move_avatars(true, false, &mut ev);
    assert_eq!(g.pb.avatars[a].place, AvatarPlace::Board { hex: h(-1, 0) });
}

#[test]
fn p17_avatars_do_not_enter_a_system_held_by_another_engaged_avatar() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.put_tile("A06", h(2, 0));
    g.pb.tiles[0].rift_disabled = true;
    // Avatar 0 is engaged with seat 0 at (1,0); Avatar 1 at (2,0).
    avatar_at(&mut g, 0, h(1, 0));
    let b = avatar_at(&mut g, 1, h(2, 0));
    g.put_ship(0, h(1, 0));
    g.pb.ships[0].engaged = true;
    for s in 1..4 {
        g.pb.ships[s].hidden = true;
    }
    g.pb.corruption.movement_this_turn = 3;
    let mut ev = Vec::new();
    g.move_avatars(true, false, &mut ev);
    // Everyone is engaged or hidden: the normal rules apply to all (FAQ);
    // the second Avatar may then join the engaged ship.
    assert!(matches!(g.pb.avatars[b].place, AvatarPlace::Board { .. }));
}

#[test]
fn p17_avatars_use_secondary_rifts_between_corrupt_systems() {
    let mut g = game4();
    g.put_tile("C02", h(3, -3));
    g.put_tile("A02", h(3, -2));
    let a = avatar_at(&mut g, 0, h(3, -3));
    // All ships at the Starting System (Corrupt): one move through the rifts.
    g.pb.corruption.movement_this_turn = 1;
    g.hid.rng = GameRng::new(0);
    let mut ev = Vec::new();
    g.move_avatars(true, false, &mut ev);
    assert_eq!(g.pb.avatars[a].place, AvatarPlace::Board { hex: Hex::ORIGIN });
}

#[test]
fn p16_permanent_discard_takes_a_lost_health_marker_first() {
    let mut g = game4();
    g.pb.ships[0].health = 5;
    let max = g.pb.ships[0].max_health;
    let mut ev = Vec::new();
    g.discard_health_marker(0, &mut ev);
    assert_eq!((g.ship(0).health, g.ship(0).max_health), (5, max - 1));
    g.pb.ships[0].energy_total = 3;
    g.discard_energy_marker(0, &mut ev);
    assert_eq!(g.ship(0).energy_total, 2, "the last energy marker unlocked");
}

#[test]
fn p18_end_phase_cleans_up() {
    let mut g = game4();
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.pb.ships[0].energy_used = 1;
    let mut ev = Vec::new();
    g.end_phase(&mut ev);
    assert!(g.pb.ships.iter().all(|s| s.fleet.is_none() && !s.played && s.energy_used == 0));
    assert_eq!(g.pb.round, 2);
}

/// Rulebook p. 19: Heroic is a choice of Signals; the permanent +1 Avatar
/// movement marker is an extra "you could add" on top of it. The variant
/// puts it on the mat at any level, and configurations stored before the
/// option existed (Heroic with the marker) keep their meaning.
#[test]
fn p19_nightmare_variant_adds_a_permanent_avatar_move() {
    for d in Difficulty::ALL {
        let mut cfg = GameConfig::random(5, 4, d);
        assert_eq!(Game::new(cfg.clone()).unwrap().pb.corruption.movement_permanent, 0);
        cfg.nightmare = Some(true);
        assert_eq!(Game::new(cfg).unwrap().pb.corruption.movement_permanent, 1);
    }
    let legacy = |d: &str| -> GameConfig {
        let json = format!(
            r#"{{"ships":["warship","explorer","proto_ship"],"difficulty":"{d}","allies":["smuggler","mercenary"],"seed":4}}"#
        );
        serde_json::from_str(&json).unwrap()
    };
    assert!(legacy("heroic").nightmare() && !legacy("hardened").nightmare());
    assert_eq!(Game::new(legacy("heroic")).unwrap().pb.corruption.movement_permanent, 1);
}

#[test]
fn faq_hidden_ship_is_ignored_then_engaged_by_a_staying_avatar_without_damage_roll() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.pb.tiles[0].rift_disabled = true;
    let a = avatar_at(&mut g, 0, h(1, 0));
    g.put_ship(0, h(1, 0));
    g.pb.ships[0].hidden = true;
    for s in 1..4 {
        g.pb.ships[s].hidden = true;
    }
    let mut ev = Vec::new();
    g.move_avatars(true, false, &mut ev);
    assert!(!g.ship(0).engaged, "all hidden: hunted but not engaged (FAQ)");
    g.pb.avatars[a].place = AvatarPlace::Board { hex: h(1, 0) };
    let ev = g.begin(0);
    assert!(g.ship(0).engaged, "detected by the Avatar at the start of the turn");
    assert!(rolls(&ev, RollPurpose::Damage).is_empty(), "no Damage Roll outside the Corruption phase");
}

#[test]
fn p12_the_last_key_sends_the_avatars_to_the_main_rift_at_once() {
    let mut g = game4();
    g.put_tile("RIFT", h(1, 0));
    g.put_tile("A02", h(2, 0));
    g.pb.tiles[0].rift_disabled = true;
    let a = avatar_at(&mut g, 0, h(3, 0));
    g.put_tile("A06", h(3, 0));
    g.pb.ships[0].keys = vec![1, 2, 3, 4];
    g.begin(0);
    g.act(0, "jump:1,0");
    let (g, ev) = find(&g, 0, "explore", |_, ev| {
        ev.iter().any(|e| matches!(e, Event::AvatarDieRolled { moves, .. } if *moves >= 2))
    });
    assert!(ev.iter().any(|e| matches!(e, Event::AvatarMoved { .. })));
    assert_eq!(g.pb.avatars[a].place, AvatarPlace::Board { hex: h(1, 0) });
    assert!(g.ship(0).engaged);
    assert!(rolls(&ev, RollPurpose::Damage).is_empty(), "not in the Corruption phase: no Damage Roll");
}

#[test]
fn p16_avatars_heading_for_the_main_rift_still_engage_aggressively_in_the_corruption_phase() {
    // p. 12: only the immediate move after the last Key skips the Damage
    // Roll, because it happens outside the Corruption phase; p. 16 makes
    // every engagement during the Corruption phase an aggressive one.
    let mut g = game4();
    g.put_tile("RIFT", h(1, 0));
    g.put_tile("A02", h(2, 0));
    g.pb.tiles[0].rift_disabled = true;
    let a = avatar_at(&mut g, 0, h(2, 0));
    g.pb.corruption.rift_rush = true;
    g.put_ship(0, h(1, 0));
    for s in 1..4 {
        g.put_ship(s, Hex::ORIGIN);
    }
    g.pb.corruption.movement_this_turn = 3;
    let mut ev = Vec::new();
    g.move_avatars(true, false, &mut ev);
    assert_eq!(g.pb.avatars[a].place, AvatarPlace::Board { hex: h(1, 0) });
    assert!(g.ship(0).engaged);
    assert_eq!(rolls(&ev, RollPurpose::Damage).len(), 1, "engaged in the Corruption phase: a Damage Roll");
}

#[test]
fn p16_faq_a_captain_engaged_by_an_avatar_can_be_helped_by_forming_a_fleet() {
    // p. 16 (Aggressive Engagement): the fight waits for the next Action
    // phase and others may come and help by forming a Fleet. FAQ (Flottes):
    // join the player first, then fight. FAQ (Explorations): once the fight
    // is under way nobody joins.
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    avatar_at(&mut g, 0, h(1, 0));
    g.put_ship(1, h(1, 0));
    g.pb.ships[1].engaged = true; // engaged during the last Corruption phase
    g.begin(0);
    g.act(0, "jump:1,0");
    assert!(matches!(pending(&g), Pending::CombatCommand));
    assert!(g.ids().contains(&"invite:1".to_string()), "the engaged captain may be asked to join first");
    let mut declined = g.clone();
    declined.act(0, "invite:1");
    declined.act(1, "decline");
    assert_eq!(declined.pb.fight.as_ref().map(|f| f.seats.clone()), Some(vec![0]));
    g.act(0, "invite:1");
    g.act(1, "accept");
    assert!(matches!(pending(&g), Pending::CombatCommand));
    assert_eq!(g.pb.fight.as_ref().map(|f| f.seats.clone()), Some(vec![0, 1]), "they fight the Avatar together");
    assert!(g.ship(1).turn_started && g.ship(1).fleet.is_some());
    // Once a blow is struck, the fleet is closed until the fight ends.
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    avatar_at(&mut g, 0, h(1, 0));
    g.put_ship(1, h(1, 0));
    g.pb.ships[1].engaged = true;
    g.begin(0);
    g.act(0, "jump:1,0");
    g.act(0, "attack:avatar:0");
    g.act(0, "defense:0:red");
    if matches!(pending(&g), Pending::AfterRoll { .. }) {
        g.act(0, "resolve_attack");
    }
    assert!(matches!(pending(&g), Pending::CombatCommand), "a single Defense die cannot end this fight");
    assert!(!g.ids().contains(&"invite:1".to_string()));
}

/// Captains 0 and 1 fly as a fleet into Avatar 0's system (1,0) and the
/// fight starts, under `revision`. Returns the game at the combat command.
pub(super) fn fleet_meets_an_avatar(revision: Option<u32>) -> Game {
    let mut g = game4();
    g.config.rules_revision = revision;
    g.put_tile("A02", h(1, 0));
    avatar_at(&mut g, 0, h(1, 0));
    g.pb.corruption.position = 1;
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "jump:1,0");
    assert!(matches!(pending(&g), Pending::CombatCommand));
    g
}

#[test]
fn faq_avatars_one_fleet_member_may_hide_so_the_others_leave_without_raising_the_corruption() {
    // FAQ, Avatars: hiding in the system can be a good strategy, "car cela
    // signifie que le joueur perdra un tour entier au lieu de tout le
    // groupe (la corruption augmente de 1 lorsque le dernier joueur quitte
    // le système)". The fleet disengages together (p. 14); one member
    // stays hidden, its turn over, and the others fly on.
    let mut g = fleet_meets_an_avatar(Some(crate::RULES_REVISION));
    g.act(0, "disengage_hide:1");
    assert!(g.ship(1).hidden && g.ship(1).played && g.ship(1).hex == h(1, 0));
    assert_eq!(g.pb.active, vec![0], "the rest of the fleet goes on");
    g.pb.ships[0].health = 6;
    g.act(0, "jump:0,0");
    assert_eq!(g.pb.corruption.position, 1, "a captain stayed: nobody gave the system up");
    assert!(!g.ship(0).played && matches!(pending(&g), Pending::Action));
}

/// The Avatar card `id`'s index.
fn avatar_card(id: &str) -> u8 {
    Content::get().avatars.iter().position(|a| a.id == id).expect("avatar id") as u8
}

fn mod_effect(id: &str) -> u8 {
    Content::get().mod_effects.iter().position(|m| m.id == id).expect("mod id") as u8
}

#[test]
fn p16_an_avatars_module_discard_may_take_a_precursor_mod() {
    // p. 16, Avatar abilities: a discarded module is chosen "from all your
    // Precursor Mods, Ship and Precursor Ship modules". A ship with mods
    // and no module still loses one (rules revision 3; before, only
    // modules were offered, so such a ship lost nothing).
    let after_retaliation = |revision: u32| {
        let mut g = game4_at(revision);
        g.put_tile("A02", h(1, 0));
        let a = avatar_at(&mut g, avatar_card("warden_ouroboros"), h(1, 0));
        g.pb.ships[0].mods = vec![mod_effect("heavy_munitions"), mod_effect("healing_energy")];
        g.pb.ships[0].health = 40;
        g.pb.ships[0].max_health = 40;
        g.begin(0);
        g.act(0, "jump:1,0");
        g.act(0, &format!("attack:avatar:{a}"));
        find(&g, 0, "offense:0", |g, ev| {
            ev.iter().any(|e| matches!(e, Event::HealthLost { seat: 0, .. }))
                && !matches!(g.pb.pending, Pending::AfterRoll { .. })
        })
        .0
    };
    let mut g = after_retaliation(crate::RULES_REVISION);
    assert!(matches!(pending(&g), Pending::DiscardModule { seat: 0 }), "{:?}", pending(&g));
    let lose = format!("discard_mod:{}", mod_effect("healing_energy"));
    assert_eq!(g.ids(), vec![format!("discard_mod:{}", mod_effect("heavy_munitions")), lose.clone()]);
    let ev = g.act(0, &lose);
    assert_eq!(g.ship(0).mods, vec![mod_effect("heavy_munitions")]);
    assert!(ev.iter().any(|e| matches!(e, Event::ModLost { seat: 0, power } if power == "healing_energy")));

    let g = after_retaliation(2);
    assert!(!matches!(pending(&g), Pending::DiscardModule { .. }), "rules revision 2 replays as it was played");
    assert_eq!(g.ship(0).mods.len(), 2);
}

#[test]
fn p09_an_avatar_in_an_enemy_system_does_not_spare_the_detection_roll() {
    // p. 9: entering a non-pacified Enemy system, or starting a turn in
    // one, calls for a Detection Roll, with no exception for an Avatar
    // there; a detected ship fights the patrol beside the Avatar (p. 15:
    // engaged with every Enemy in the system). Rules revision 3; before,
    // the Avatar's engagement skipped the roll.
    let arrive = |revision: u32| {
        let mut g = game4_at(revision);
        g.put_tile("E01", h(1, 0));
        avatar_at(&mut g, 0, h(1, 0));
        g.pb.ships[0].health = 40;
        g.pb.ships[0].max_health = 40;
        g.begin(0);
        g.act(0, "jump:1,0");
        g
    };
    let g = arrive(crate::RULES_REVISION);
    assert!(g.ship(0).engaged, "the Avatar engages at once");
    assert!(matches!(pending(&g), Pending::Detection { .. }), "{:?}", pending(&g));
    let (g, _) = find(&g, 0, "roll_detection", |g, _| g.enemy_in(h(1, 0)));
    let ids = g.ids();
    assert!(ids.iter().any(|i| i.starts_with("attack:avatar:")) && ids.iter().any(|i| i.starts_with("attack:enemy:")));
    let g = arrive(2);
    assert!(!matches!(pending(&g), Pending::Detection { .. }), "rules revision 2 replays as it was played");

    // Starting the turn there: the same roll.
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    avatar_at(&mut g, 0, h(1, 0));
    g.put_ship(0, h(1, 0));
    g.begin(0);
    assert!(g.ship(0).engaged);
    assert!(matches!(pending(&g), Pending::Detection { seats } if seats == &vec![0]), "{:?}", pending(&g));
}

/// An Enemy system at (1,0) holding an Avatar and a Harrow Titan left there
/// (1 damage). With `arrive`, captain 0 and captain 1 (invited) jump in;
/// else captain 0, hidden there, starts its turn. Rules revision `revision`.
pub(super) fn beside_an_avatar_and_a_left_enemy(revision: u32, arrive: bool) -> Game {
    let mut g = game4_at(revision);
    g.put_tile("E01", h(1, 0));
    g.pb.board_enemies.push(BoardEnemy {
        card: enemy_index("harrow_titan"),
        hex: h(1, 0),
        damage: 1,
        guards_key: None,
    });
    avatar_at(&mut g, 0, h(1, 0));
    for s in 0..2 {
        g.pb.ships[s].health = 40;
        g.pb.ships[s].max_health = 40;
    }
    if arrive {
        g.begin(0);
        g.act(0, "invite:1");
        g.act(1, "accept");
        g.act(0, "jump:1,0");
    } else {
        g.put_ship(0, h(1, 0));
        g.pb.ships[0].hidden = true;
        g.begin(0);
    }
    g
}

/// FAQ, "Ennemis et Combats" (on p. 16): next turn the hidden captain makes
/// "un lancer de détection, comme si vous veniez d'entrer dans le système",
/// and fights the Enemy left there only if detected; FAQ, "Avatars": an
/// Avatar that stayed always detects and engages. So beside an Avatar the
/// roll is still made, on arriving too, and the Enemy card lying there joins
/// the fight only on a failed roll or a voluntary engagement; a group that
/// slips past it fights the Avatar alone, which takes the Combat board (the
/// Enemy's damage goes), gives one Damage Roll on disengaging, and once
/// beaten leaves the group free beside the Enemy (rules revision 4).
#[test]
fn faq_enemies_and_combats_beside_an_avatar_the_enemy_left_there_is_fought_only_if_detected() {
    for arrive in [false, true] {
        let g = beside_an_avatar_and_a_left_enemy(crate::RULES_REVISION, arrive);
        assert!(g.ship(0).engaged, "the Avatar engages at once");
        assert!(matches!(pending(&g), Pending::Detection { .. }), "arrive {arrive}: {:?}", pending(&g));
        // Undetected: the Avatar alone.
        let (slipped, _) =
            find(&g, 0, "roll_detection", |_, ev| ev.iter().any(|e| matches!(e, Event::Undetected { .. })));
        let ids = slipped.ids();
        assert!(ids.contains(&"attack:avatar:0".to_string()), "{ids:?}");
        assert!(!ids.contains(&"attack:enemy:0".to_string()), "the Enemy stays out of the fight: {ids:?}");
        assert_eq!(slipped.pb.board_enemies[0].damage, 0, "the Avatar took the Combat board");
        let mut fled = slipped.clone();
        let ev = fled.act(0, "disengage");
        assert_eq!(rolls(&ev, RollPurpose::Damage).len(), fled.pb.active.len(), "one Damage Roll each: the Avatar's");
        // Detected, or engaging voluntarily: the Enemy and the Avatar.
        let (seen, _) =
            find(&g, 0, "roll_detection", |_, ev| !ev.iter().any(|e| matches!(e, Event::Undetected { .. })));
        let mut engaged = g.clone();
        engaged.act(0, "engage");
        for g in [seen, engaged] {
            let ids = g.ids();
            assert!(ids.contains(&"attack:avatar:0".to_string()) && ids.contains(&"attack:enemy:0".to_string()));
        }
    }
    // A fleet that slipped past the Enemy and beats the Avatar is free.
    let g = beside_an_avatar_and_a_left_enemy(crate::RULES_REVISION, true);
    let (mut g, _) = find(&g, 0, "roll_detection", |_, ev| ev.iter().any(|e| matches!(e, Event::Undetected { .. })));
    g.pb.avatars[0].damage = Content::get().avatars[0].health - 1;
    g.act(0, "attack:avatar:0");
    g.act(0, "offense:0");
    let (g, _) = find(&g, 1, "offense:1", |g, _| g.pb.avatars[0].place != AvatarPlace::Board { hex: h(1, 0) });
    assert!(matches!(pending(&g), Pending::Action), "{:?}", pending(&g));
    assert!(g.pb.fight.is_none() && !g.ship(0).engaged && !g.ship(1).engaged);
    assert!(
        g.enemy_in(h(1, 0)) && g.tile_at(h(1, 0)).is_some_and(|t| t.pacified.is_none()),
        "the Enemy is still there"
    );
}

/// Under rules revision 3: no roll beside an Avatar when an Enemy card lies
/// there, and that Enemy is in the fight (for the stored-games test).
pub(super) fn beside_an_avatar_the_left_enemy_is_fought_unrolled(revision: u32) -> bool {
    [false, true].into_iter().all(|arrive| {
        let g = beside_an_avatar_and_a_left_enemy(revision, arrive);
        !matches!(pending(&g), Pending::Detection { .. }) && g.ids().contains(&"attack:enemy:0".to_string())
    })
}

#[test]
fn faq_a_captain_who_flees_an_avatar_but_stays_in_its_system_has_not_left_it() {
    // p. 16 (Harbinger) moves the marker on disengaging; the FAQ (Avatars)
    // times it: "la corruption augmente de 1 lorsque le dernier joueur
    // quitte le système". A captain who disengages and ends the turn there,
    // hidden or not, has not left: the marker stays (the Avatar may engage
    // the exposed captain again in the Corruption phase).
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    avatar_at(&mut g, 0, h(1, 0));
    g.pb.corruption.position = 1;
    g.put_ship(0, h(1, 0));
    g.pb.ships[0].health = 20;
    g.pb.ships[0].max_health = 20;
    g.begin(0);
    g.act(0, "disengage");
    g.act(0, "end_turn");
    assert_eq!(g.pb.corruption.position, 1);
}

#[test]
fn p16_a_captain_destroyed_fleeing_an_avatar_has_left_the_system() {
    // p. 16: the retreat's Damage Roll may destroy the fleeing ship; the
    // system is then empty, so the marker moves at once (rules revision 3;
    // before, it waited for some other ship to move).
    let destroyed_fleeing = |revision: u32| {
        let mut g = game4_at(revision);
        g.put_tile("A02", h(1, 0));
        avatar_at(&mut g, 0, h(1, 0));
        g.pb.corruption.position = 1;
        g.put_ship(0, h(1, 0));
        g.pb.ships[0].health = 1;
        g.begin(0);
        find(&g, 0, "disengage", |g, _| g.ship(0).defeated).0.pb.corruption.position
    };
    assert_eq!(destroyed_fleeing(crate::RULES_REVISION), 2);
    assert_eq!(destroyed_fleeing(2), 1, "rules revision 2 replays as it was played");
}

#[test]
fn p03_p11_one_red_and_one_white_rift_marker_move_when_used_again() {
    // p. 3: two Rift markers; p. 11: "use the red Rift marker" to create a
    // rift, "the white Rift marker" to disable one. With one of each, a
    // second use moves the marker, and the system it left goes back to
    // what it was (rules revision 3, read like the FAQ's Exploration
    // markers: when none is left, one is moved).
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.put_tile("A06", h(-1, 0));
    g.put_tile("C02", h(0, 1));
    g.put_tile("C03", h(0, -1));
    let mut ev = Vec::new();
    g.apply_effect(crate::content::Effect::CreateRift, &[0], h(1, 0), &mut ev);
    g.apply_effect(crate::content::Effect::CreateRift, &[0], h(-1, 0), &mut ev);
    assert!(!g.has_rift(h(1, 0)) && g.has_rift(h(-1, 0)), "the red marker moved");
    assert!(ev.contains(&Event::RiftChanged { hex: h(1, 0), open: false }));
    g.apply_effect(crate::content::Effect::DisableRift, &[0], h(0, 1), &mut ev);
    g.apply_effect(crate::content::Effect::DisableRift, &[0], h(0, -1), &mut ev);
    assert!(g.has_rift(h(0, 1)) && !g.has_rift(h(0, -1)), "the white marker moved, the first rift opens again");
    let created = g.pb.tiles.iter().filter(|t| t.rift_created).count();
    let disabled = g.pb.tiles.iter().filter(|t| t.rift_disabled).count();
    assert_eq!((created, disabled), (1, 1));

    let mut old = game4_at(2);
    old.put_tile("A02", h(1, 0));
    old.put_tile("A06", h(-1, 0));
    old.apply_effect(crate::content::Effect::CreateRift, &[0], h(1, 0), &mut ev);
    old.apply_effect(crate::content::Effect::CreateRift, &[0], h(-1, 0), &mut ev);
    assert!(old.has_rift(h(1, 0)) && old.has_rift(h(-1, 0)), "rules revision 2 replays as it was played");
}

#[test]
fn p17_a_wormhole_face_lets_the_avatar_take_a_wormhole_on_top_of_its_moves() {
    // p. 17: on a wormhole face "this Avatar can move through wormholes this
    // turn only, on top of his normal moves" (French edition: "en plus de
    // ses déplacements normaux"). A 1 + wormhole roll takes the Avatar
    // through the wormhole and one system further (rules revision 3;
    // before, the hop used up the move).
    let after_one_and_wormhole = |revision: u32| {
        let mut base = game4_at(revision);
        base.put_tile("A03", h(4, 0)); // a wormhole, the Avatar's system
        base.put_tile("A09", h(-4, 0)); // the other wormhole
        base.put_tile("A02", h(-5, 0)); // a lane away from it: the quarry
        for s in 0..4 {
            base.put_ship(s, h(-5, 0));
        }
        for s in 1..4 {
            base.pb.ships[s].defeated = true;
        }
        let a = avatar_at(&mut base, 0, h(4, 0));
        for k in 0..500 {
            let mut g = base.clone();
            g.hid.rng = GameRng::new(k);
            let mut ev = Vec::new();
            g.move_avatars(true, false, &mut ev);
            if ev.iter().any(|e| matches!(e, Event::AvatarDieRolled { moves: 1, wormhole: true, .. })) {
                return (g.pb.avatars[a].place, g.ship(0).engaged);
            }
        }
        panic!("no 1 + wormhole roll");
    };
    assert_eq!(after_one_and_wormhole(crate::RULES_REVISION), (AvatarPlace::Board { hex: h(-5, 0) }, true));
    assert_eq!(
        after_one_and_wormhole(2).0,
        AvatarPlace::Board { hex: h(-4, 0) },
        "rules revision 2: the hop was the move"
    );
}

/// FAQ, Avatars, tie-breaks 2 and 3: at equal distance and Keys, a single
/// player goes before a fleet ("Joueur seul avec le moins de Coque
/// restante", then "Flotte avec le moins de Coque restante"), and of two
/// single players the one with the least hull is the target.
#[test]
fn faq_avatars_tie_single_player_before_fleet_then_least_hull() {
    // A single player at full hull against a hurt fleet: the single player.
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.put_tile("A06", h(-1, 0));
    g.pb.tiles[0].rift_disabled = true;
    let a = avatar_at(&mut g, 0, Hex::ORIGIN);
    g.put_ship(0, h(1, 0));
    g.put_ship(1, h(-1, 0));
    g.put_ship(2, h(-1, 0));
    g.pb.ships[1].fleet = Some(9);
    g.pb.ships[2].fleet = Some(9);
    g.pb.ships[1].health = 1;
    g.pb.ships[2].health = 1;
    g.put_ship(3, h(1, 0));
    g.pb.ships[3].hidden = true;
    g.pb.corruption.movement_this_turn = 3;
    let mut ev = Vec::new();
    g.move_avatars(true, false, &mut ev);
    assert_eq!(g.pb.avatars[a].place, AvatarPlace::Board { hex: h(1, 0) }, "a single player before a fleet");
    // Two single players: the one with less hull.
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.put_tile("A06", h(-1, 0));
    g.pb.tiles[0].rift_disabled = true;
    let a = avatar_at(&mut g, 0, Hex::ORIGIN);
    g.put_ship(0, h(1, 0));
    g.put_ship(1, h(-1, 0));
    g.pb.ships[1].health = 2;
    for s in 2..4u8 {
        g.put_ship(s, h(1, 0));
        g.pb.ships[s as usize].hidden = true;
    }
    g.pb.corruption.movement_this_turn = 3;
    let mut ev = Vec::new();
    g.move_avatars(true, false, &mut ev);
    assert_eq!(g.pb.avatars[a].place, AvatarPlace::Board { hex: h(-1, 0) }, "the least hull");
}

/// FAQ, Avatars (hiding, p. 16): the hidden captain is ignored in the
/// Corruption phase, and an Avatar that rolls one move or more "quittera
/// votre tuile" to hunt another player, who is engaged; the hidden captain
/// is free at its next turn.
#[test]
fn faq_avatars_with_a_move_the_avatar_leaves_the_hidden_captains_system() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.put_tile("A06", h(2, 0));
    g.pb.tiles[0].rift_disabled = true;
    let a = avatar_at(&mut g, 0, h(1, 0));
    g.put_ship(0, h(1, 0));
    g.pb.ships[0].hidden = true;
    g.put_ship(1, h(2, 0));
    for s in 2..4 {
        g.pb.ships[s].hidden = true;
    }
    g.pb.corruption.movement_this_turn = 1;
    let mut ev = Vec::new();
    g.move_avatars(true, false, &mut ev);
    assert_eq!(g.pb.avatars[a].place, AvatarPlace::Board { hex: h(2, 0) });
    assert!(g.ship(1).engaged && !g.ship(0).engaged);
}

/// A system that calls for no Detection Roll, holding an Avatar and an
/// Enemy card with 1 damage: with `key`, the Key 1 system A04 and its
/// Signal's guardian (left by a retreat); else the Enemy system E01,
/// pacified, with an Enemy left where a captain hid. With `arrive`,
/// captains 0 and 1 (invited) jump in; else captain 0 starts its turn
/// there. Rules revision
/// `revision`.
pub(super) fn avatar_beside_an_enemy_without_detection(revision: u32, key: bool, arrive: bool) -> Game {
    let mut g = game4_at(revision);
    let hex = h(1, 0);
    if key {
        g.put_tile("A04", hex);
        g.pb.board_enemies.push(BoardEnemy { card: enemy_index("harrow_titan"), hex, damage: 1, guards_key: Some(1) });
    } else {
        g.put_tile("E01", hex);
        if let Some(t) = g.tile_at_mut(hex) {
            t.pacified = Some(Pacified::Green);
        }
        g.pb.board_enemies.push(BoardEnemy { card: enemy_index("harrow_titan"), hex, damage: 1, guards_key: None });
    }
    avatar_at(&mut g, 0, hex);
    for s in 0..2 {
        g.pb.ships[s].health = 40;
        g.pb.ships[s].max_health = 40;
    }
    if arrive {
        g.begin(0);
        g.act(0, "invite:1");
        g.act(1, "accept");
        g.act(0, "jump:1,0");
    } else {
        g.put_ship(0, hex);
        g.pb.ships[0].hidden = true;
        g.begin(0);
    }
    g
}

/// FAQ, "Ennemis et Combats": an Enemy left on the board is engaged on
/// detection ("Si vous êtes détecté, vous devez engager l'ennemi qui est
/// resté dans le système") or by whoever chooses to take the fight up
/// ("ils peuvent reprendre le combat là où vous l'avez laissé"); FAQ,
/// "Avatars": the Avatar always detects, and engages. In a system that
/// calls for no Detection Roll (a Key system, a pacified one) nothing
/// detects the captain for the Enemy lying there, a Signal's guardian
/// included: the Avatar is fought alone (rules revision 5; before, its
/// engagement dragged the Enemy into the fight).
#[test]
fn faq_enemies_and_combats_an_avatar_drags_no_enemy_into_its_fight_where_no_detection_roll_is_made() {
    for key in [true, false] {
        for arrive in [true, false] {
            let g = avatar_beside_an_enemy_without_detection(crate::RULES_REVISION, key, arrive);
            assert!(g.ship(0).engaged, "key {key}, arrive {arrive}: the Avatar engages");
            let ids = g.ids();
            assert!(ids.contains(&"attack:avatar:0".to_string()), "key {key}, arrive {arrive}: {ids:?}");
            assert!(!ids.contains(&"attack:enemy:0".to_string()), "key {key}, arrive {arrive}: {ids:?}");
            assert!(g.pb.fight.as_ref().is_some_and(|f| f.avatars_only));
            // Rules revision 4 replays as it was played: the Enemy is in.
            let old = avatar_beside_an_enemy_without_detection(4, key, arrive);
            assert!(old.ids().contains(&"attack:enemy:0".to_string()), "key {key}, arrive {arrive}: revision 4");
        }
    }
    // Once the Avatar is beaten, the captain is free beside the guardian,
    // which is still there for an Assault to take up.
    let mut g = avatar_beside_an_enemy_without_detection(crate::RULES_REVISION, true, true);
    g.pb.avatars[0].damage = Content::get().avatars[0].health - 1;
    g.act(0, "attack:avatar:0");
    g.act(0, "offense:0");
    let (g, _) = find(&g, 1, "offense:1", |g, _| g.pb.avatars[0].place != AvatarPlace::Board { hex: h(1, 0) });
    assert!(matches!(pending(&g), Pending::Action), "{:?}", pending(&g));
    assert!(g.pb.fight.is_none() && !g.ship(0).engaged && !g.ship(1).engaged);
    assert!(g.pb.board_enemies.iter().any(|e| e.guards_key == Some(1)), "the guardian waits");
}

/// Under rules revision 4: an Avatar in a Key system drags the guardian
/// lying there into its fight (for the stored-games test).
pub(super) fn avatar_drags_the_guardian_into_its_fight(revision: u32) -> bool {
    avatar_beside_an_enemy_without_detection(revision, true, true).ids().contains(&"attack:enemy:0".to_string())
}
