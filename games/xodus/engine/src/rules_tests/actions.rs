//! The Action phase (rulebook pp. 6-9) and the FAQ on fleets and rushes.

use super::*;
use crate::content::Face;
use crate::event::RollPurpose;

#[test]
fn p06_players_choose_who_plays_next() {
    let g = game4();
    let d = g.decision();
    assert_eq!(d.kind, crate::decision::DecisionKind::NextPlayer);
    assert_eq!(g.ids(), vec!["start:0", "start:1", "start:2", "start:3"]);
    // Each captain starts only their own turn.
    let mut g2 = g.clone();
    assert!(g2.apply(1, "start:0").is_err());
    assert_eq!(g2.pb, g.pb, "a refused choice changes nothing");
}

#[test]
fn p06_a_player_spends_all_actions_before_another_plays() {
    let mut g = game4();
    g.begin(0);
    assert_eq!(g.ship(0).actions_left, 3);
    assert!(g.ids().iter().all(|id| !id.starts_with("start:")));
    g.act(0, "end_turn");
    assert!(g.ship(0).played);
    assert_eq!(g.ids(), vec!["start:1", "start:2", "start:3"]);
}

#[test]
fn p06_probe_space_first_then_reveal_and_orient_with_a_lane() {
    let mut g = game4();
    g.begin(0);
    let probe = g.ids().into_iter().find(|i| i.starts_with("probe:")).expect("a probe target");
    let stack_before = g.hid.stack.len();
    g.act(0, &probe);
    assert_eq!(g.hid.stack.len(), stack_before - 1, "the tile is drawn after the space is chosen");
    let Pending::Orientation { hex, .. } = *pending(&g) else { panic!("orientation pending") };
    let rot = g.ids()[0].clone();
    g.act(0, &rot);
    let t = g.tile_at(hex).expect("placed").clone();
    let d = hex.direction_to(Hex::ORIGIN).unwrap();
    assert!(t.lanes & (1 << d) != 0, "the new system connects to the current one by a lane");
    assert_eq!(g.ship(0).hex, Hex::ORIGIN, "a probe does not move the ship");
    assert_eq!(g.ship(0).actions_left, 2);
    let def = &Content::get().tiles[t.tile as usize];
    assert_eq!(t.exploration_marker, def.exploration);
    assert_eq!(t.key_marker, def.signal.filter(|&k| k <= 4));
}

#[test]
fn p06_blind_jump_moves_into_the_revealed_system() {
    let mut g = game4();
    g.begin(0);
    let bj = g.ids().into_iter().find(|i| i.starts_with("blind_jump:")).unwrap();
    g.act(0, &bj);
    let Pending::Orientation { hex, .. } = *pending(&g) else { panic!() };
    let rot = g.ids()[0].clone();
    g.act(0, &rot);
    assert_eq!(g.ship(0).hex, hex);
}

#[test]
fn p07_hyperspace_rush_three_jumps_for_two_actions_detection_only_at_the_end() {
    let mut g = game4();
    // A line: start (0,0) - Enemy (1,0) - Allied (2,0) - Allied (3,0).
    g.put_tile("E01", h(1, 0));
    g.put_tile("A02", h(2, 0));
    g.put_tile("A06", h(3, 0));
    g.begin(0);
    g.act(0, "rush");
    assert_eq!(g.ship(0).actions_left, 1);
    g.act(0, "rush_to:1,0");
    assert!(matches!(pending(&g), Pending::RushStep { done: 1, .. }), "no detection while passing through");
    assert!(!g.ids().contains(&"end_turn".to_string()), "FAQ: exactly three jumps, no stopping early");
    g.act(0, "rush_to:2,0");
    g.act(0, "rush_to:3,0");
    assert_eq!(g.ship(0).hex, h(3, 0));
    assert!(matches!(pending(&g), Pending::Action));
}

#[test]
fn p07_rush_never_passes_an_avatar() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.put_tile("A06", h(-1, 0));
    g.put_tile("A10", h(-2, 0));
    g.put_tile("A12", h(-3, 0));
    g.pb.avatars.push(Avatar { card: 0, place: AvatarPlace::Board { hex: h(1, 0) }, damage: 0 });
    g.begin(0);
    g.act(0, "rush");
    assert!(!g.ids().contains(&"rush_to:1,0".to_string()), "the Avatar's system cannot be passed through");
    assert!(g.ids().contains(&"rush_to:-1,0".to_string()));
}

#[test]
fn faq_rush_through_wormholes() {
    let mut g = game4();
    // A03 and E06 carry wormholes; they are adjacent to one another.
    g.put_tile("A03", h(1, 0));
    g.put_tile("E06", h(-3, 3));
    g.put_tile("A02", h(-3, 2));
    g.begin(0);
    g.act(0, "rush");
    g.act(0, "rush_to:1,0");
    assert!(g.ids().contains(&"rush_to:-3,3".to_string()), "one jump through the wormhole");
    g.act(0, "rush_to:-3,3");
    g.act(0, "rush_to:-3,2");
    assert_eq!(g.ship(0).hex, h(-3, 2));
}

#[test]
fn p08_wormhole_systems_are_adjacent_to_each_other() {
    let mut g = game4();
    g.put_tile("A03", h(1, 0));
    g.put_tile("A09", h(-4, 4));
    g.put_ship(0, h(1, 0));
    g.begin(0);
    assert!(g.ids().contains(&"jump:-4,4".to_string()));
}

#[test]
fn p06_strain_gives_an_action_and_a_damage_roll_at_the_end() {
    let mut g = game4();
    g.begin(0);
    g.act(0, "strain:0");
    assert_eq!(g.ship(0).actions_left, 4);
    assert!(!g.ids().contains(&"strain:0".to_string()), "once per turn");
    let (_, ev) = find(&g, 0, "end_turn", |_, ev| !rolls(ev, RollPurpose::Damage).is_empty());
    assert_eq!(rolls(&ev, RollPurpose::Damage).len(), 1);
}

#[test]
fn p06_strain_at_any_time_even_with_no_action_left() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    g.act(0, "jump:0,0");
    g.act(0, "jump:1,0");
    // No action left: the turn waits so the captain may still strain.
    assert_eq!(g.ship(0).actions_left, 0);
    assert!(g.ids().contains(&"strain:0".to_string()));
    g.act(0, "strain:0");
    assert_eq!(g.ship(0).actions_left, 1);
}

#[test]
fn faq_fleet_actions_are_the_fewest_at_each_instant() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.begin(2); // Explorer: 4 actions
    g.act(2, "jump:1,0");
    g.act(2, "jump:0,0");
    assert_eq!(g.ship(2).actions_left, 2);
    g.act(2, "invite:0");
    assert_eq!(g.decision().deciders, vec![0], "the invited captain answers");
    g.act(0, "accept");
    assert_eq!(g.pb.active, vec![2, 0]);
    assert_eq!(g.ship(0).actions_left, 3, "joining starts the Warship's turn (FAQ)");
    assert_eq!(g.group_actions(), 2, "limited by the fleet");
    // Same action, same target: both ships jump.
    g.act(0, "jump:1,0");
    assert_eq!((g.ship(0).hex, g.ship(2).hex), (h(1, 0), h(1, 0)));
    assert_eq!(g.group_actions(), 1);
    // Strain is individual (FAQ): the Explorer strains, the fleet gains.
    g.act(2, "strain:2");
    assert_eq!(g.group_actions(), 2);
    assert!(!g.ship(0).strained);
}

/// FAQ, Flottes (p. 6): players on the same tile "peuvent former une Flotte
/// (sans utiliser d'action)", and forming one "n'est pas une action". So the
/// invitation is offered with no Action left while the turn is open (here
/// Strain keeps it open), and after disengaging, when the FAQ (Ennemis et
/// Combats) bars every Action but the jumps: inviting is none (rules
/// revision 4; see [`invitations_with_no_action_and_after_disengaging`]).
#[test]
fn faq_fleets_forming_a_fleet_uses_no_action() {
    // After disengaging, not while the Enemy fled from is still there: a
    // joiner would bring the fleet back into that fight (FAQ, "Ennemis et
    // Combats": the Enemy still pursues you).
    assert_eq!(invitations_with_no_action_and_after_disengaging(crate::RULES_REVISION), (true, false));
    let mut g = game4();
    g.begin(0);
    g.pb.ships[0].actions_left = 0;
    g.act(0, "invite:1");
    g.act(1, "accept");
    assert_eq!(g.pb.active, vec![0, 1]);
    assert_eq!(g.group_actions(), 0, "the fleet has the fewest Actions, none");
}

/// Whether captain 0 may invite captain 1 (i) with no Action left and (ii)
/// after disengaging from an Enemy, under rules revision `revision`.
pub(super) fn invitations_with_no_action_and_after_disengaging(revision: u32) -> (bool, bool) {
    let mut g = game4_at(revision);
    g.begin(0);
    g.pb.ships[0].actions_left = 0;
    let no_action = g.ids().contains(&"invite:1".to_string());
    let mut g = game4_at(revision);
    g.put_tile("E01", h(1, 0));
    g.put_ship(1, h(1, 0));
    g.pb.ships[0].health = 40;
    g.pb.ships[0].max_health = 40;
    g.begin(0);
    g.act(0, "jump:1,0");
    g.put_enemy("harrow_titan", h(1, 0));
    g.act(0, "engage");
    g.act(0, "disengage");
    assert!(g.ship(0).disengaged && matches!(pending(&g), Pending::Action));
    let disengaged = g.ids().contains(&"invite:1".to_string());
    (no_action, disengaged)
}

#[test]
fn p06_only_players_who_have_not_played_can_join() {
    let mut g = game4();
    g.begin(3);
    g.act(3, "end_turn");
    g.begin(0);
    assert!(!g.ids().contains(&"invite:3".to_string()));
    assert!(g.ids().contains(&"invite:1".to_string()));
}

#[test]
fn faq_battlecruiser_xp_for_forming_or_joining_a_fleet() {
    let mut g = game4();
    g.begin(1); // Battlecruiser forms a fleet
    g.act(1, "invite:0");
    g.act(0, "accept");
    assert_eq!(g.ship(1).xp, 1);
    let mut g = game4();
    g.begin(0);
    g.act(0, "invite:2");
    g.act(2, "accept");
    g.act(0, "invite:1"); // Battlecruiser joins a formed fleet
    g.act(1, "accept");
    assert_eq!(g.ship(1).xp, 1);
}

#[test]
fn faq_joining_a_fleet_in_an_enemy_system_rolls_detection() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.put_ship(1, h(1, 0));
    g.put_ship(0, h(1, 0));
    g.pb.tiles.last_mut().unwrap().pacified = None;
    g.begin(0);
    // Start of turn in a non-pacified Enemy system: a Detection Roll.
    assert!(matches!(pending(&g), Pending::Detection { .. }));
    let (g, _) = find(&g, 0, "roll_detection", |g, _| matches!(g.pb.pending, Pending::Action));
    let mut g = g;
    g.act(0, "invite:1");
    g.act(1, "accept");
    match pending(&g) {
        Pending::Detection { seats } => assert_eq!(seats, &vec![1], "the joiner rolls"),
        p => panic!("expected a detection roll, got {p:?}"),
    }
    // If the joiner is detected, the whole fleet fights.
    let (g, _) = find(&g, 1, "roll_detection", |g, _| g.pb.fight.is_some());
    assert_eq!(g.pb.fight.as_ref().unwrap().seats, vec![0, 1]);
}

/// Captain 0 jumps into an Enemy system, engages a Harrow Titan there and,
/// before the first blow, invites captain 1 (in the system, not yet
/// played), who accepts. Rules revision `revision`.
pub(super) fn captain_joins_a_fleet_already_fighting(revision: u32) -> Game {
    let mut g = game4_at(revision);
    g.put_tile("E01", h(1, 0));
    g.put_ship(1, h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    g.put_enemy("harrow_titan", h(1, 0));
    g.act(0, "engage");
    g.act(0, "invite:1");
    g.act(1, "accept");
    g
}

/// FAQ, Flottes: forming a fleet is no Action, so a captain may join a
/// player in an Enemy system "et ensuite seulement déclencher le combat";
/// joining starts the joiner's turn with its start-of-turn effects ("lancers
/// de détection"). When the fleet is already engaged with everything in the
/// system, the joiner fights whatever a Detection Roll would show, so none
/// is asked (rules revision 4). A fleet fighting only an Avatar beside an
/// Enemy card it slipped past still has the joiner roll: a miss brings that
/// Enemy into the fight (FAQ, Flottes: "S'il est détecté, toute la flotte
/// doit alors se battre").
#[test]
fn faq_fleets_a_captain_joining_a_fleet_already_fighting_rolls_no_detection() {
    let g = captain_joins_a_fleet_already_fighting(crate::RULES_REVISION);
    assert!(!matches!(pending(&g), Pending::Detection { .. }), "{:?}", pending(&g));
    assert!(matches!(pending(&g), Pending::CombatCommand));
    assert_eq!(g.pb.fight.as_ref().map(|f| f.seats.clone()), Some(vec![0, 1]), "the joiner is in the fight");
    assert!(g.ship(1).engaged && g.ship(1).turn_started);
    // Beside an Avatar, the fleet fighting it alone: the joiner rolls.
    let mut g = super::corruption::beside_an_avatar_and_a_left_enemy(crate::RULES_REVISION, false);
    g.put_ship(1, h(1, 0));
    let (mut g, _) = find(&g, 0, "roll_detection", |_, ev| ev.iter().any(|e| matches!(e, Event::Undetected { .. })));
    assert!(g.pb.fight.as_ref().is_some_and(|f| f.avatars_only));
    g.act(0, "invite:1");
    g.act(1, "accept");
    assert!(matches!(pending(&g), Pending::Detection { seats } if seats == &vec![1]), "{:?}", pending(&g));
    let (g, _) = find(&g, 1, "roll_detection", |_, ev| !ev.iter().any(|e| matches!(e, Event::Undetected { .. })));
    assert_eq!(g.pb.fight.as_ref().map(|f| (f.seats.clone(), f.avatars_only)), Some((vec![0, 1], false)));
    assert!(g.ids().contains(&"attack:enemy:0".to_string()), "the whole fleet fights the Enemy too");
}

#[test]
fn p08_allied_systems_trigger_no_detection() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    assert!(matches!(pending(&g), Pending::Action));
}

#[test]
fn p09_detection_roll_any_miss_detects() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    assert!(matches!(pending(&g), Pending::Detection { .. }));
    let (g2, ev) = find(&g, 0, "roll_detection", |_, ev| {
        rolls(ev, RollPurpose::Detection).iter().any(|r| r.contains(&Face::Miss))
    });
    assert!(g2.pb.fight.is_some(), "a miss detects");
    assert_eq!(g2.pb.board_enemies.len(), 1, "E01 patrols with one Enemy");
    assert!(ev.iter().any(|e| matches!(e, Event::EnemyDrawn { from_reserve: false, .. })));
    let (g3, _) = find(&g, 0, "roll_detection", |_, ev| {
        rolls(ev, RollPurpose::Detection).iter().all(|r| !r.contains(&Face::Miss))
    });
    assert!(g3.pb.fight.is_none(), "no miss: undetected");
}

#[test]
fn p09_a_fleet_rolls_together_and_one_miss_detects_all() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "jump:1,0");
    let (g, ev) = find(&g, 0, "roll_detection", |_, ev| {
        let r = rolls(ev, RollPurpose::Detection);
        r.len() == 2 && !r[0].contains(&Face::Miss) && r[1].contains(&Face::Miss)
    });
    assert_eq!(rolls(&ev, RollPurpose::Detection).len(), 2);
    assert_eq!(g.pb.fight.as_ref().unwrap().seats, vec![0, 1]);
}

#[test]
fn p09_surveillance_always_detects() {
    let mut g = game4();
    g.put_tile("E03", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    assert!(matches!(pending(&g), Pending::CombatCommand), "no roll: detected");
}

#[test]
fn p09_stronger_enemies_come_from_the_reserve_and_faq_go_to_main_discard() {
    let mut g = game4();
    g.put_tile("E04", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    g.act(0, "engage");
    assert!(g.pb.board_enemies.iter().all(|e| Content::get().enemies[e.card as usize].level == 2));
    assert_eq!(g.pb.reserve_levels, [0, 3, 4, 4]);
    // Defeat it: it goes to the main discard, not back to the reserve (FAQ).
    g.pb.board_enemies[0].damage = 10;
    let card = g.pb.board_enemies[0].card;
    g.pb.board_enemies[0].damage = Content::get().enemies[card as usize].health - 1;
    let (g, _) = find(&g, 0, "attack:enemy:0", |_, _| true);
    let (g, _) = find(&g, 0, "offense:0", |g, _| g.pb.board_enemies.is_empty());
    assert_eq!(g.pb.enemy_discard, vec![card]);
    assert_eq!(g.pb.reserve_levels, [0, 3, 4, 4]);
}

#[test]
fn p09_pacify_in_a_system_of_stronger_enemies_draws_from_the_reserve() {
    // p. 9: "Enemies in this system are stronger": the Enemy a Pacify
    // action draws there comes from the reserve, like a detected patrol's
    // (rules revision 3; before, it came from the deck).
    let drawn_level = |revision: u32| {
        let mut g = game4_at(revision);
        g.put_tile("E04", h(1, 0));
        g.begin(0);
        g.act(0, "jump:1,0");
        let (mut g, _) = find(&g, 0, "roll_detection", |g, _| g.pb.fight.is_none());
        g.act(0, "pacify");
        let card = g.pb.board_enemies[0].card;
        Content::get().enemies[card as usize].level
    };
    assert_eq!(drawn_level(crate::RULES_REVISION), 2, "the reserve's top level");
    assert_eq!(drawn_level(2), 1, "rules revision 2 drew from the deck");
}

#[test]
fn p09_choose_combat_instead_of_the_detection_roll() {
    let mut g = game4();
    g.put_tile("E02", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    let ev = g.act(0, "engage");
    assert!(rolls(&ev, RollPurpose::Detection).is_empty());
    assert_eq!(g.pb.board_enemies.len(), 2, "E02 patrols with two: all drawn at once (p. 15)");
}

#[test]
fn p09_pacified_systems_need_no_roll_and_stay_pacified_two_turns() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.tile_at_mut(h(1, 0)).unwrap().pacified = Some(Pacified::Green);
    g.begin(0);
    g.act(0, "jump:1,0");
    assert!(matches!(pending(&g), Pending::Action));
    let mut ev = Vec::new();
    g.end_phase(&mut ev);
    assert_eq!(g.tile_at(h(1, 0)).unwrap().pacified, Some(Pacified::Red));
    g.end_phase(&mut ev);
    assert_eq!(g.tile_at(h(1, 0)).unwrap().pacified, None);
}

#[test]
fn p09_corrupt_systems_cannot_be_explored() {
    let mut g = game4();
    g.begin(0);
    assert!(!g.ids().contains(&"explore".to_string()));
}

#[test]
fn p07_scavenge_once_per_turn() {
    let mut g = game4();
    g.begin(0);
    g.act(0, "scavenge");
    assert_eq!(g.ship(0).scraps, 2);
    assert!(!g.ids().contains(&"scavenge".to_string()));
}

#[test]
fn p07_ship_maintenance_each_member_picks_an_option() {
    let mut g = game4();
    g.pb.ships[0].scraps = 5;
    g.pb.ships[1].scraps = 5;
    g.pb.ships[1].health -= 2;
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "maintenance");
    assert_eq!(g.decision().deciders, vec![0]);
    g.act(0, "repair:1");
    assert_eq!(g.decision().deciders, vec![1]);
    g.act(1, "buy_energy");
    assert_eq!(g.ship(1).energy_total, 2);
    assert_eq!(g.ship(1).health, g.ship(1).max_health - 1);
    assert_eq!((g.ship(0).scraps, g.ship(1).scraps), (4, 3));
    assert!(matches!(pending(&g), Pending::Action));
}

#[test]
fn faq_drone_specialist_xp_once_per_repair_action() {
    let mut g = game4();
    g.pb.ships[3].scraps = 3;
    g.pb.ships[3].health -= 1;
    g.begin(3);
    g.act(3, "maintenance");
    g.act(3, "repair:3");
    assert_eq!(g.ship(3).xp, 1);
}

/// FAQ, Flottes (p. 9): "Tous les joueurs d'une flotte lancent leurs dés
/// ensemble. Si l'un d'entre eux obtient au moins 1 raté, toute la flotte
/// est détectée": both members roll; with no miss the fleet slips past, one
/// miss from either engages the whole fleet.
#[test]
fn faq_fleets_a_fleet_rolls_detection_together_and_one_miss_detects_all() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "jump:1,0");
    assert!(matches!(pending(&g), Pending::Detection { seats } if seats == &vec![0, 1]), "one roll for the fleet");
    let (clear, ev) = find(&g, 0, "roll_detection", |_, ev| {
        let r = rolls(ev, RollPurpose::Detection);
        r.len() == 2 && r.iter().all(|d| !d.contains(&Face::Miss))
    });
    assert!(ev.iter().any(|e| matches!(e, Event::Undetected { seats } if seats == &vec![0, 1])));
    assert!(clear.pb.fight.is_none());
    let (seen, _) = find(&g, 0, "roll_detection", |_, ev| {
        let r = rolls(ev, RollPurpose::Detection);
        r.len() == 2 && r[0].contains(&Face::Miss) && !r[1].contains(&Face::Miss)
    });
    assert_eq!(seen.pb.fight.as_ref().map(|f| f.seats.clone()), Some(vec![0, 1]), "the first ship's miss detects both");
}

/// FAQ, Rush Hyperespace (p. 7): a Rush is three jumps in a row; "vous ne
/// pouvez pas simplement sauter deux fois (pour éviter la détection dans
/// les systèmes Ennemis)". Passing through an Enemy system at the second
/// jump, the third is still owed: no roll there, no other choice than a
/// third jump.
#[test]
fn faq_hyperspace_rush_exactly_three_jumps_never_two() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.put_tile("E01", h(2, 0));
    g.put_tile("A06", h(3, 0));
    g.begin(0);
    g.act(0, "rush");
    g.act(0, "rush_to:1,0");
    g.act(0, "rush_to:2,0");
    assert!(matches!(pending(&g), Pending::RushStep { done: 2, .. }), "no stop, no roll after two jumps");
    let ids = g.ids();
    assert!(!ids.is_empty() && ids.iter().all(|i| i.starts_with("rush_to:")), "only a third jump: {ids:?}");
    g.act(0, "rush_to:3,0");
    assert_eq!(g.ship(0).hex, h(3, 0));
    assert!(matches!(pending(&g), Pending::Action));
}

/// FAQ, Rush Hyperespace (p. 8): the wormhole systems are all adjacent to
/// one another, so a Rush may go from wormhole to wormhole, each hop one of
/// its three jumps, however far apart they lie.
#[test]
fn faq_hyperspace_rush_wormhole_systems_are_all_adjacent() {
    let mut g = game4();
    g.put_tile("A03", h(1, 0));
    g.put_tile("A09", h(-4, 4));
    g.put_ship(0, h(1, 0));
    g.begin(0);
    assert!(g.ids().contains(&"rush".to_string()));
    g.act(0, "rush");
    g.act(0, "rush_to:-4,4");
    assert!(g.ids().contains(&"rush_to:1,0".to_string()), "and back, one jump");
    g.act(0, "rush_to:1,0");
    g.act(0, "rush_to:-4,4");
    assert_eq!(g.ship(0).hex, h(-4, 4));
    assert!(matches!(pending(&g), Pending::Action), "three jumps");
}
