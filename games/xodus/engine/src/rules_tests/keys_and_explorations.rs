//! Explorations (rulebook pp. 10-11, FAQ "Explorations"), Precursor Signals
//! and the Keys (p. 12), victory.

use super::*;
use crate::content::{Challenge, ExplorationType};
use crate::event::RollPurpose;

fn signal_index(id: &str) -> u8 {
    Content::get().signals.iter().position(|s| s.id == id).unwrap() as u8
}

fn exploration_index(f: impl Fn(&crate::content::ExplorationDef) -> bool) -> u8 {
    Content::get().explorations.iter().position(f).unwrap() as u8
}

#[test]
fn p12_exploring_a_key_system_reveals_its_signal_which_stays_until_solved() {
    let mut g = game4();
    g.put_tile("A04", h(1, 0)); // Key 1
    g.hid.signal_cards[0] = signal_index("derelict_ship");
    g.pb.ships[0].scraps = 2;
    g.begin(0);
    g.act(0, "jump:1,0");
    g.act(0, "explore");
    assert_eq!(g.pb.signals[0].card, Some(signal_index("derelict_ship")));
    assert_eq!(g.tile_at(h(1, 0)).unwrap().key_marker, Some(1), "the marker stays on the tile");
    // [Repair] costs an action and a scrap per marker removed.
    g.act(0, "instruction");
    assert_eq!((g.pb.signals[0].progress, g.ship(0).actions_left, g.ship(0).scraps), (1, 0, 1));
    assert!(!g.pb.signals[0].solved);
}

#[test]
fn p12_anyone_on_the_system_may_interact_later_and_accessing_the_key_is_free() {
    let mut g = game4();
    g.put_tile("A04", h(1, 0));
    g.hid.signal_cards[0] = signal_index("beacon_toll");
    g.pb.signals[0].card = Some(signal_index("beacon_toll"));
    g.pb.signals[0].progress = 2;
    g.pb.ships[1].scraps = 3;
    g.begin(1);
    g.act(1, "jump:1,0");
    let before = g.ship(1).actions_left;
    g.act(1, "instruction");
    assert!(g.pb.signals[0].solved);
    assert_eq!(g.ship(1).keys, vec![1]);
    assert_eq!(g.ship(1).actions_left, before - 1, "only the instruction cost an action");
    assert_eq!(g.tile_at(h(1, 0)).unwrap().key_marker, None);
}

#[test]
fn p12_a_fleet_chooses_who_carries_the_key() {
    let mut g = game4();
    g.put_tile("A04", h(1, 0));
    g.pb.signals[0].card = Some(signal_index("beacon_toll"));
    g.pb.signals[0].progress = 3;
    g.pb.ships[0].scraps = 3;
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "jump:1,0");
    g.act(0, "instruction");
    assert!(matches!(pending(&g), Pending::KeyCarrier { key: 1 }));
    g.act(1, "carry_key:1");
    assert_eq!(g.ship(1).keys, vec![1]);
}

#[test]
fn p12_guardian_signal_opens_when_the_guardian_falls() {
    let mut g = game4();
    g.put_tile("A04", h(1, 0));
    g.pb.signals[0].card = Some(signal_index("sentinel_husk"));
    assert!(matches!(
        Content::get().signals[signal_index("sentinel_husk") as usize].challenge,
        Challenge::Guardian { .. }
    ));
    g.begin(0);
    g.act(0, "jump:1,0");
    g.act(0, "instruction");
    assert_eq!(g.pb.board_enemies[0].guards_key, Some(1));
    let card = g.pb.board_enemies[0].card;
    g.pb.board_enemies[0].damage = Content::get().enemies[card as usize].health - 1;
    g.act(0, "attack:enemy:0");
    let (g, _) = find(&g, 0, "offense:0", |g, _| g.pb.board_enemies.is_empty());
    assert_eq!(g.ship(0).keys, vec![1]);
}

/// Captain 0 assaults the Sentinel Husk's guardian at (1,0), wounds it
/// by `damage`, disengages and ends its turn; captain 1 then jumps in and
/// follows the instruction. Returns the game and the first guardian's card.
fn guardian_left_behind_then_assaulted_again(revision: Option<u32>, damage: u8) -> (Game, u8) {
    let mut g = game4();
    g.config.rules_revision = revision;
    g.put_tile("A04", h(1, 0));
    g.pb.signals[0].card = Some(signal_index("sentinel_husk"));
    g.begin(0);
    g.act(0, "jump:1,0");
    g.act(0, "instruction");
    let first = g.pb.board_enemies[0].card;
    g.pb.board_enemies[0].damage = damage;
    g.act(0, "disengage");
    g.pb.ships[0].health = 6; // whatever the Damage Roll took
    g.act(0, "end_turn");
    g.begin(1);
    g.act(1, "jump:1,0");
    g.act(1, "instruction");
    (g, first)
}

#[test]
fn faq_enemies_and_combats_a_guardian_left_behind_is_taken_up_where_it_was_left() {
    // FAQ, "Ennemis et Combats": an Enemy fled from stays on the board with
    // its damage until the End phase, and a player or fleet that reaches
    // it takes the fight up where it was left. The next Assault on the
    // guardian Signal engages that guardian; it does not draw another.
    let (g, first) = guardian_left_behind_then_assaulted_again(Some(crate::RULES_REVISION), 2);
    assert_eq!(g.pb.board_enemies.len(), 1, "no second guardian drawn");
    assert_eq!((g.pb.board_enemies[0].card, g.pb.board_enemies[0].damage), (first, 2));
    assert_eq!(g.pb.fight.as_ref().map(|f| f.seats.clone()), Some(vec![1]), "captain 1 is engaged with it");
    assert_eq!(g.pb.board_enemies[0].guards_key, Some(1));
}

#[test]
fn games_stored_under_earlier_rules_revisions_replay_under_their_rules() {
    // Configurations stored before revisions existed replay as they were
    // played: there, every Assault drew a new guardian.
    let (g, _) = guardian_left_behind_then_assaulted_again(None, 2);
    assert_eq!(g.pb.board_enemies.len(), 2);
    assert_eq!(g.config.rules_revision(), 0);
    // Revision 1 games keep the rulings revision 2 changed.
    let one = Some(1);
    // 2.1 Pirate Ship: an XP for every scrap gain of an Exploration.
    assert_eq!(pirate_explores_the_salvage_field(one, false, false), 2);
    assert_eq!(pirate_explores_the_salvage_field(one, true, false), 3);
    assert_eq!(pirate_explores_the_salvage_field(one, false, true), 3);
    // 2.2 One Combat board: only a drawn card repaired the foe it replaced.
    assert_eq!(super::combat::first_foe_damage_after_a_new_engagement(one, false), 3);
    assert_eq!(super::combat::first_foe_damage_after_a_new_engagement(one, true), 3);
    // 2.3 Analysis in a fleet: every option for the whole group, each one
    // after the first costing every member an Action.
    let mut g = fleet_explores_the_salvage_field(one);
    assert!(g.ids().iter().all(|i| !i.contains(":for:")), "no option for a part of the fleet");
    let acts = (g.ship(0).actions_left, g.ship(2).actions_left);
    g.act(0, "option:2");
    g.act(0, "scrap_to:2");
    g.act(0, "scrap_to:2");
    g.act(0, "scrap_to:2");
    g.act(0, "option:0");
    assert_eq!((g.ship(0).actions_left, g.ship(2).actions_left), (acts.0 - 1, acts.1 - 1));
    // 2.4 Trade: a ship outside the active group gives scraps only.
    let (g, _) = super::modules_and_trade::trade_with_a_captain_who_already_played(one);
    assert!(g.ids().iter().all(|i| !i.starts_with("give_key:1") && !i.starts_with("give_module:1")));
    // 2.5 Giving ground to Avatars: the marker moved at the first
    // disengagement in the system.
    let (marks, _) = super::corruption::captains_leave_avatar_systems_on_separate_turns(one);
    assert_eq!(marks, vec![2, 2, 2, 2, 3, 3]);
    // 2.6 Only the Pacify action (or a Decoy Probe) pacified.
    assert!(!super::combat::defeating_the_patrol_pacifies(one, true));
    assert!(!super::combat::defeating_the_patrol_pacifies(one, false));
    // 2.7 Pacify always drew a card, which repaired the Enemy left there.
    let left = super::combat::pacify_where_an_enemy_was_left(one);
    assert_eq!(left.len(), 2);
    assert_eq!(left[0].1, 0);
    // 2.8 The only-jumps restriction lasted the whole turn.
    let ids = super::combat::options_after_fleeing_to_another_system(one);
    assert!(!ids.iter().any(|i| i == "explore" || i == "scavenge" || i.starts_with("probe:")));
    // A fleet hid or fled as one.
    let g = super::corruption::fleet_meets_an_avatar(one);
    assert!(!g.ids().iter().any(|i| i.starts_with("disengage_hide:")));
    // A Decoy went once a turn.
    let g = super::mods::decoy_probe_against_two_enemies(one);
    assert!(!g.ids().iter().any(|i| i.contains("activate:0:")));
    // Revision 3 games keep the rulings revision 4 changed.
    let three = 3;
    // 4.1 Maintenance Drone: one special did not give the Strain back.
    assert!(super::mods::maintenance_drone_strain_after_one_special(three));
    // 4.2 An Avatar's fight paid the modules' and mods' scraps (1 + Trophy
    // Scanner + Plunderer Tools + at least one special's).
    let (scraps, healed, pirate_xp, _, announced) = super::corruption::pirate_defeats_an_avatar(three);
    assert!(scraps >= 4 && healed && pirate_xp > 0 && announced, "{scraps} scraps, Pirate XP {pirate_xp}");
    // 4.3 Beside an Avatar, an Enemy card lying in the system was fought
    // with no Detection Roll.
    assert!(super::corruption::beside_an_avatar_the_left_enemy_is_fought_unrolled(three));
    // 4.4 A captain joining a fleet already fighting rolled for detection.
    let g = super::actions::captain_joins_a_fleet_already_fighting(three);
    assert!(matches!(pending(&g), Pending::Detection { seats } if seats == &vec![1]));
    // 4.5 Invitations needed an Action left and no disengagement.
    assert_eq!(super::actions::invitations_with_no_action_and_after_disengaging(three), (false, false));
    // 4.6 The engine took the reserve die's colour: one option, no colour.
    let id = format!(
        "activate:1:mod{}",
        crate::content::Content::get().mod_effects.iter().position(|m| m.id == "tacticians_arsenal").unwrap_or(0)
    );
    assert_eq!(super::mods::tacticians_arsenal_options(three), vec![id]);
    // 4.7 One Trade mixed exchanges within the fleet and with outsiders.
    let ids = super::modules_and_trade::trade_options_after(three, "give_scraps:0:1:1");
    assert!(ids.contains(&"give_scraps:0:2:1".to_string()) && ids.contains(&"give_scraps:3:1:1".to_string()));
    // Revision 4 games keep the rulings revision 5 changed.
    let four = 4;
    // 5.1 Trade was offered with nothing to exchange.
    assert!(super::modules_and_trade::action_ids_with_nothing_to_trade(four, false, 0).contains(&"trade".into()));
    // 5.2 An Avatar dragged the guardian of a Key system into its fight.
    assert!(super::corruption::avatar_drags_the_guardian_into_its_fight(four));
}

#[test]
fn p12_keys_activated_on_the_main_rift_send_the_avatars_and_win_at_the_end_of_the_action_phase() {
    let mut g = game4();
    g.put_tile("RIFT", h(1, 0));
    g.pb.ships[0].keys = vec![1, 2];
    g.pb.ships[1].keys = vec![3, 4];
    for s in &mut g.pb.signals {
        s.solved = true;
    }
    g.begin(0);
    g.act(0, "invite:1");
    g.act(1, "accept");
    g.act(0, "jump:1,0");
    let ev = g.act(0, "explore");
    assert!(ev.iter().any(|e| matches!(e, Event::KeysActivated { total: 4, .. })));
    assert!(g.pb.corruption.rift_rush);
    g.act(0, "end_turn");
    for s in 2..4 {
        g.begin(s);
        g.act(s, "end_turn");
    }
    assert_eq!(g.outcome().map(|o| (o.won, o.cause)), Some((true, "rift_sealed".to_string())));
}

#[test]
fn p12_no_victory_while_an_avatar_holds_the_main_rift() {
    let mut g = game4();
    g.put_tile("RIFT", h(1, 0));
    g.tile_at_mut(h(1, 0)).unwrap().keys_activated = vec![1, 2, 3, 4];
    g.pb.avatars.push(Avatar { card: 0, place: AvatarPlace::Board { hex: h(1, 0) }, damage: 0 });
    for s in 0..4 {
        g.begin(s);
        g.act(s, "end_turn");
    }
    assert!(g.outcome().is_none_or(|o| !o.won));
}

#[test]
fn faq_explorer_xp_for_each_explore_action_not_for_extra_options() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    let card = exploration_index(|e| e.id == "salvage_field");
    assert_eq!(Content::get().explorations[card as usize].kind, ExplorationType::Analysis);
    g.hid.exploration_deck.push(card);
    g.begin(2);
    g.act(2, "jump:1,0");
    g.act(2, "explore");
    assert_eq!(g.ship(2).xp, 1);
    assert!(g.tile_at(h(1, 0)).is_some_and(|t| !t.exploration_marker), "FAQ: the marker is removed at once");
    let acts = g.ship(2).actions_left;
    g.act(2, "option:0");
    let second = g.ids().into_iter().find(|i| i.starts_with("option:")).expect("more options for more actions");
    g.act(2, &second);
    assert_eq!(g.ship(2).actions_left, acts - 1, "an extra Analysis option costs one Action");
    assert_eq!(g.ship(2).xp, 1, "extra options are not Explore actions");
    assert!(!g.ids().contains(&"option:0".to_string()), "each option once");
}

#[test]
fn p10_warning_one_option_for_the_whole_fleet() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    let card = exploration_index(|e| e.id == "ion_storm");
    g.hid.exploration_deck.push(card);
    g.begin(0);
    g.act(0, "jump:1,0");
    g.act(0, "explore");
    g.act(0, "option:1");
    assert!(matches!(pending(&g), Pending::Action), "a Warning ends after one option");
    assert!(g.pb.exploration_discard.contains(&card), "FAQ: discarded at once");
}

#[test]
fn p10_class_locked_options_open_with_a_fleet_member_of_that_class() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    let card = exploration_index(|e| e.id == "drifting_archive"); // option 2: rogue
    g.hid.exploration_deck.push(card);
    g.begin(0); // Warship (warrior)
    let mut alone = g.clone();
    alone.act(0, "jump:1,0");
    alone.act(0, "explore");
    assert!(!alone.ids().contains(&"option:2".to_string()));
    g.act(0, "invite:2"); // Explorer (rogue)
    g.act(2, "accept");
    g.act(0, "jump:1,0");
    g.act(0, "explore");
    assert!(g.ids().contains(&"option:2".to_string()));
}

#[test]
fn p11_danger_skill_roll_summed_over_the_fleet_and_failed_together() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    let card = exploration_index(|e| e.id == "dormant_swarm");
    g.hid.exploration_deck.push(card);
    g.begin(0);
    g.act(0, "invite:2");
    g.act(2, "accept");
    g.act(0, "jump:1,0");
    let (g, ev) = find(&g, 0, "explore", |_, ev| {
        let specials: usize = rolls(ev, RollPurpose::Skill)
            .iter()
            .map(|r| r.iter().filter(|f| **f == crate::content::Face::Special).count())
            .sum();
        specials < 2
    });
    assert_eq!(rolls(&ev, RollPurpose::Skill).len(), 2, "every member rolls");
    for s in [0, 2] {
        assert_eq!(g.ship(s).health, g.ship(s).max_health - 2);
        assert_eq!(g.ship(s).damaged.len(), 1);
    }
}

#[test]
fn faq_out_of_exploration_markers_move_one_from_an_unexplored_system() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.pb.exploration_supply = 0;
    let mut ev = Vec::new();
    g.reveal_tile(tile_index("A05"), h(-1, 0), 0, &mut ev);
    assert!(!g.tile_at(h(1, 0)).unwrap().exploration_marker);
    assert!(g.tile_at(h(-1, 0)).unwrap().exploration_marker);
}

#[test]
fn p11_reveal_systems_anywhere_connected() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    let card = exploration_index(|e| e.id == "old_observatory");
    g.hid.exploration_deck.push(card);
    g.begin(0);
    g.act(0, "jump:1,0");
    g.act(0, "explore");
    g.act(0, "option:0");
    assert!(matches!(pending(&g), Pending::RevealAnywhere { left: 2, .. }));
    let at = g.ids().into_iter().find(|i| i.starts_with("reveal_at:")).unwrap();
    g.act(0, &at);
    let rot = g.ids()[0].clone();
    g.act(0, &rot);
    assert!(matches!(pending(&g), Pending::RevealAnywhere { left: 1, .. }));
    g.act(0, "skip_effect");
    assert!(matches!(pending(&g), Pending::Exploration { .. }), "back to the Analysis card");
}

/// The Pirate Ship (seat 0 of `trio`) explores the Salvage Field at (1,0)
/// under `revision`: `fleet` brings the Warship along (every scrap of the
/// shared rewards goes to the Pirate), `scanner` gives the Pirate the
/// System Scanner. It takes the 2-scrap option, then the 1-scrap one.
/// Returns the Pirate's XP.
pub(super) fn pirate_explores_the_salvage_field(revision: Option<u32>, fleet: bool, scanner: bool) -> u8 {
    let mut g = trio(ShipKind::PirateShip);
    g.config.rules_revision = revision;
    g.put_tile("A02", h(1, 0));
    g.hid.exploration_deck.push(exploration_index(|e| e.id == "salvage_field"));
    if scanner {
        let m = Content::get().mod_effects.iter().position(|m| m.id == "system_scanner").unwrap() as u8;
        g.pb.ships[0].mods.push(m);
    }
    g.begin(0);
    if fleet {
        g.act(0, "invite:1");
        g.act(1, "accept");
    }
    g.act(0, "jump:1,0");
    g.act(0, "explore");
    for option in ["option:0", "option:1"] {
        g.act(0, option);
        while matches!(pending(&g), Pending::ShareScraps { .. }) {
            g.act(0, "scrap_to:0");
        }
    }
    assert_eq!(g.ship(0).scraps, 1 + 3 + scanner as u8, "every scrap reached the Pirate");
    g.ship(0).xp
}

#[test]
fn faq_pirate_ship_one_xp_per_exploration() {
    // FAQ, Pirate Ship: modules that give scraps during an Explore action
    // count, "mais vous ne pouvez gagner qu'une seule EXP par Exploration".
    let now = Some(crate::RULES_REVISION);
    assert_eq!(pirate_explores_the_salvage_field(now, false, false), 1, "two options with scraps, alone");
    assert_eq!(pirate_explores_the_salvage_field(now, true, false), 1, "scraps handed over in three steps");
    assert_eq!(pirate_explores_the_salvage_field(now, false, true), 1, "a System Scanner scrap on the same Explore");
    // The next Exploration earns its own XP.
    let mut g = trio(ShipKind::PirateShip);
    g.put_tile("A02", h(1, 0));
    g.put_tile("A05", h(2, 0));
    let card = exploration_index(|e| e.id == "salvage_field");
    g.hid.exploration_deck.push(card);
    g.hid.exploration_deck.push(card);
    g.pb.ships[0].actions_left = 9;
    g.begin(0);
    g.pb.ships[0].actions_left = 9;
    g.act(0, "jump:1,0");
    g.act(0, "explore");
    g.act(0, "option:0");
    g.act(0, "finish_exploration");
    g.act(0, "jump:2,0");
    g.act(0, "explore");
    g.act(0, "option:0");
    assert_eq!(g.ship(0).xp, 2, "one XP for each Exploration");
}

/// The Warship (0) and the Explorer (2, a Rogue) explore the Salvage Field
/// at (1,0) as a fleet under `revision`, and the card waits for options.
pub(super) fn fleet_explores_the_salvage_field(revision: Option<u32>) -> Game {
    let mut g = game4();
    g.config.rules_revision = revision;
    g.put_tile("A02", h(1, 0));
    g.hid.exploration_deck.push(exploration_index(|e| e.id == "salvage_field"));
    g.begin(0);
    g.act(0, "invite:2");
    g.act(2, "accept");
    g.act(0, "jump:1,0");
    g.act(0, "explore");
    assert!(matches!(pending(&g), Pending::Exploration { .. }));
    g
}

#[test]
fn p10_analysis_fleet_members_each_pick_an_option_or_share_one_each_option_once() {
    // p. 10: "Fleet members can all pick a different option or share a
    // common one [...], but any option can only be picked once per
    // Exploration"; in the Exodus example each captain takes a different
    // option with the one Explore action, then both spend 1 more Action
    // on a third option they share.
    let mut g = fleet_explores_the_salvage_field(Some(crate::RULES_REVISION));
    let (acts0, acts2) = (g.ship(0).actions_left, g.ship(2).actions_left);
    let (scraps0, scraps2) = (g.ship(0).scraps, g.ship(2).scraps);
    let mine = g.decision().options.into_iter().find(|o| o.id == "option:2:for:2").expect("the Explorer's own option");
    assert_eq!(mine.seats, vec![2], "a member takes an option for itself");
    g.act(2, "option:2:for:2"); // the Rogue option: 3 scraps
    g.act(0, "option:0:for:0"); // 2 scraps
    assert_eq!((g.ship(0).scraps, g.ship(2).scraps), (scraps0 + 2, scraps2 + 3), "each option to its taker");
    assert_eq!((g.ship(0).actions_left, g.ship(2).actions_left), (acts0, acts2), "both came with the Explore action");
    assert!(g.ids().iter().all(|i| !i.starts_with("option:0") && !i.starts_with("option:2")), "each option once");
    // The third option, shared, costs each of them one more Action.
    g.act(0, "option:1");
    g.act(0, "scrap_to:0");
    assert_eq!((g.ship(0).actions_left, g.ship(2).actions_left), (acts0 - 1, acts2 - 1));
    assert_eq!(g.ship(0).scraps, scraps0 + 3);
    assert!(matches!(pending(&g), Pending::Action), "every option picked: the card is discarded");
    // A member who took nothing yet takes its option free after another paid.
    let mut g = fleet_explores_the_salvage_field(Some(crate::RULES_REVISION));
    let acts2 = g.ship(2).actions_left;
    g.act(0, "option:0:for:0");
    assert!(g.ids().contains(&"option:1:for:2".to_string()));
    g.act(2, "option:1:for:2");
    assert_eq!(g.ship(2).actions_left, acts2, "the Explorer's first option is free");
}

#[test]
fn p12_a_guardian_signal_draws_a_guardian_of_at_least_its_level() {
    // The project's Signal cards (content/signals.toml) give a guardian's
    // minimum level; the reserve is stacked by level (p. 4), so the
    // guardian is the first card of that level or above (rules revision 3;
    // before, the reserve's top card, however weak).
    let guardian_level = |revision: u32| {
        let mut g = game4_at(revision);
        g.put_tile("A04", h(1, 0));
        let lair = Content::get().signals.iter().position(|s| s.id == "avatar_lair").expect("signal") as u8;
        assert!(matches!(Content::get().signals[lair as usize].challenge, Challenge::Guardian { amount: 3 }));
        g.hid.signal_cards[0] = lair;
        g.pb.signals[0].card = Some(lair);
        g.begin(0);
        g.act(0, "jump:1,0");
        g.act(0, "instruction");
        let e = g.pb.board_enemies.iter().find(|e| e.guards_key == Some(1)).expect("a guardian");
        Content::get().enemies[e.card as usize].level
    };
    assert!(guardian_level(crate::RULES_REVISION) >= 3);
    assert_eq!(guardian_level(2), 2, "rules revision 2 replays as it was played");
}

#[test]
fn p06_strain_pays_for_a_further_analysis_option() {
    // p. 6: Straining "can be done at any point during your turn" (FAQ,
    // Flottes: "n'importe quand"); p. 10: further Analysis options cost an
    // Action. A captain out of Actions may strain in the middle of the
    // Analysis to take one more (rules revision 3).
    let analysis = |revision: u32| {
        let mut g = game4_at(revision);
        g.put_tile("A02", h(1, 0));
        let card = Content::get().explorations.iter().position(|e| e.id == "salvage_field").expect("card") as u8;
        assert_eq!(Content::get().explorations[card as usize].kind, ExplorationType::Analysis);
        g.hid.exploration_deck.push(card);
        g.begin(0);
        g.act(0, "jump:1,0");
        g.act(0, "scavenge");
        g.act(0, "explore");
        assert_eq!(g.ship(0).actions_left, 0);
        g.act(0, "option:0");
        g
    };
    let mut g = analysis(crate::RULES_REVISION);
    assert!(g.ids().contains(&"strain:0".to_string()), "{:?}", g.ids());
    g.act(0, "strain:0");
    assert!(g.ship(0).strained && g.ship(0).actions_left == 1);
    assert!(g.ids().iter().any(|i| i.starts_with("option:")), "a further option, for the Action: {:?}", g.ids());
    let g = analysis(2);
    assert_eq!(g.ids(), vec!["finish_exploration".to_string()], "rules revision 2 replays as it was played");
}

#[test]
fn p03_p11_one_white_and_one_red_avatar_movement_marker() {
    // p. 3: three Avatar Movement markers, the third for the permanent
    // variant; p. 11: "use the white Avatar Movement marker" (-1) or the
    // red one (+1) for this turn. A second effect of the same kind finds
    // its marker already on the mat and does nothing; both kinds cancel
    // (rules revision 3; before, the effects added up without limit).
    let after = |revision: u32, effects: &[Effect]| {
        let mut g = game4_at(revision);
        let mut ev = Vec::new();
        for &e in effects {
            g.apply_effect(e, &[0], Hex::ORIGIN, &mut ev);
        }
        g.pb.corruption.movement_this_turn
    };
    use crate::content::Effect;
    let (down, up) = (Effect::AvatarMovesDown, Effect::AvatarMovesUp);
    assert_eq!(after(crate::RULES_REVISION, &[down, down, down]), -1);
    assert_eq!(after(crate::RULES_REVISION, &[up, up]), 1);
    assert_eq!(after(crate::RULES_REVISION, &[down, up, down]), 0, "both markers lie on the mat");
    assert_eq!(after(2, &[down, down, down]), -3, "rules revision 2 replays as it was played");
    let mut g = game4();
    let mut ev = Vec::new();
    g.apply_effect(down, &[0], Hex::ORIGIN, &mut ev);
    g.end_phase(&mut ev);
    g.apply_effect(down, &[0], Hex::ORIGIN, &mut ev);
    assert_eq!(g.pb.corruption.movement_this_turn, -1, "the End phase takes the markers back");
}

#[test]
fn faq_out_of_exploration_markers_the_revealing_captain_chooses_which_to_move() {
    // FAQ, Explorations: "Si vous êtes à court de marqueurs, vous devez en
    // déplacer un d'une tuile encore inexplorée": the captain who revealed
    // the system chooses which unexplored system gives up its marker, and
    // that Exploration is lost (rules revision 3; before, the oldest
    // system's marker moved without a choice).
    let probe_with_two_candidates = |revision: u32| {
        let mut g = game4_at(revision);
        g.put_tile("A02", h(1, 0));
        g.put_tile("A03", h(0, 1));
        g.pb.exploration_supply = 0;
        let a05 = tile_index("A05");
        g.hid.stack.retain(|&t| t != a05);
        g.hid.stack.push(a05);
        g.begin(0);
        g.act(0, "probe:-1,0");
        let rot = g.ids()[0].clone();
        let ev = g.act(0, &rot);
        (g, ev)
    };
    let (mut g, _) = probe_with_two_candidates(crate::RULES_REVISION);
    assert!(matches!(pending(&g), Pending::MoveExplorationMarker { to, .. } if *to == h(-1, 0)), "{:?}", pending(&g));
    assert_eq!(g.decision().kind, crate::decision::DecisionKind::ExplorationMarker);
    assert_eq!(g.ids(), vec!["take_marker:1,0".to_string(), "take_marker:0,1".to_string()]);
    let ev = g.act(0, "take_marker:0,1");
    assert!(ev.contains(&Event::ExplorationMarkerMoved { from: h(0, 1), to: h(-1, 0) }));
    let marked = |g: &Game, at: Hex| g.tile_at(at).is_some_and(|t| t.exploration_marker);
    assert!(marked(&g, h(1, 0)) && !marked(&g, h(0, 1)) && marked(&g, h(-1, 0)));
    assert!(matches!(pending(&g), Pending::Action), "the turn goes on: {:?}", pending(&g));

    let (g, _) = probe_with_two_candidates(2);
    assert!(!marked(&g, h(1, 0)) && marked(&g, h(0, 1)) && marked(&g, h(-1, 0)), "rules revision 2: the oldest");
}

#[test]
fn a_state_sampled_from_a_view_keeps_drawn_cards_out_of_their_decks() {
    // A sampled state must agree with its view (the AI plans on samples): a
    // tile drawn by a probe and waiting for its orientation, or an
    // Exploration card waiting behind one of its effects' decisions, is in
    // play, not back in the stack or the deck.
    let mut g = game4();
    g.begin(0);
    let probe = g.ids().into_iter().find(|i| i.starts_with("probe:")).expect("a probe");
    g.act(0, &probe);
    let Pending::Orientation { tile, .. } = g.pb.pending.clone() else { panic!("orientation") };
    let v = g.view(crate::view::Viewer::Seat(0));
    for k in 0..50 {
        let s = Game::from_view(&v, k);
        assert!(!s.hid.stack.contains(&tile), "sample {k} put the drawn tile back");
        assert_eq!(s.hid.stack.len(), g.hid.stack.len());
    }

    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    let card = exploration_index(|e| e.id == "old_observatory");
    g.hid.exploration_deck.retain(|&c| c != card);
    g.hid.exploration_deck.push(card);
    g.begin(0);
    g.act(0, "jump:1,0");
    g.act(0, "explore");
    g.act(0, "option:0");
    assert!(matches!(g.pb.resume.as_deref(), Some(Pending::Exploration { .. })), "the card waits behind a reveal");
    let s = Game::from_view(&g.view(crate::view::Viewer::Seat(0)), 7);
    assert!(!s.hid.exploration_deck.contains(&card));
    assert_eq!(s.hid.exploration_deck.len(), g.hid.exploration_deck.len());
}

#[test]
fn p11_an_option_that_would_disable_a_rift_where_there_is_none_is_not_offered() {
    // p. 11: "Disable a Rift in the system". An Exploration option whose
    // only effect is that, drawn in a system with no rift, would do nothing
    // (and, in an Analysis, cost an Action for nothing): it is not offered
    // (rules revision 3).
    let options = |revision: u32, rift_here: bool| {
        let mut g = game4_at(revision);
        g.put_tile("A02", h(1, 0));
        if rift_here {
            g.pb.tiles.iter_mut().find(|t| t.hex == h(1, 0)).expect("tile").rift_created = true;
        }
        let card = exploration_index(|e| e.id == "old_observatory");
        g.hid.exploration_deck.push(card);
        g.begin(0);
        g.act(0, "jump:1,0");
        g.act(0, "explore");
        g.ids()
    };
    let disable = "option:1".to_string();
    assert!(!options(crate::RULES_REVISION, false).contains(&disable));
    assert!(options(crate::RULES_REVISION, true).contains(&disable), "a rift here: it is offered");
    assert!(options(2, false).contains(&disable), "rules revision 2 replays as it was played");
}

/// FAQ, Explorations: of the three kinds, an Alert (Warning) lets the group
/// choose a single option, and a Danger calls for a Skill Roll at once (no
/// option to pick); either card is then discarded.
#[test]
fn faq_explorations_warning_one_option_danger_a_skill_roll() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    let warning = exploration_index(|e| e.id == "ion_storm");
    assert_eq!(Content::get().explorations[warning as usize].kind, ExplorationType::Warning);
    g.hid.exploration_deck.push(warning);
    g.begin(0);
    g.act(0, "jump:1,0");
    g.act(0, "explore");
    assert!(g.ids().iter().filter(|i| i.starts_with("option:")).count() > 1, "several options offered");
    assert!(!g.ids().contains(&"finish_exploration".to_string()), "one must be picked");
    g.act(0, "option:1");
    assert!(matches!(pending(&g), Pending::Action), "one option, then it is over");
    assert!(g.pb.exploration_discard.contains(&warning));
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    let danger = exploration_index(|e| e.id == "dormant_swarm");
    assert_eq!(Content::get().explorations[danger as usize].kind, ExplorationType::Danger);
    g.hid.exploration_deck.push(danger);
    g.begin(0);
    g.act(0, "jump:1,0");
    let ev = g.act(0, "explore");
    assert_eq!(rolls(&ev, RollPurpose::Skill).len(), 1, "the Skill Roll comes at once");
    assert!(!matches!(pending(&g), Pending::Exploration { .. }), "nothing to pick");
    assert!(g.pb.exploration_discard.contains(&danger));
}

/// FAQ, Explorations: a captain on the tile but outside the fleet "ne peut
/// pas participer", and nobody may join the fleet "après que la carte a
/// été révélée mais avant qu'elle ne soit résolue".
#[test]
fn faq_explorations_an_outsider_on_the_tile_takes_no_part_and_nobody_joins_after_the_reveal() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    let card = exploration_index(|e| e.id == "drifting_archive");
    g.hid.exploration_deck.push(card);
    g.put_ship(1, h(1, 0));
    g.pb.ships[0].health = 2;
    g.pb.ships[1].health = 2;
    g.begin(0);
    g.act(0, "jump:1,0");
    assert!(g.ids().contains(&"invite:1".to_string()), "before the reveal, captain 1 may be invited");
    g.act(0, "explore");
    assert!(!g.ids().iter().any(|i| i.starts_with("invite")), "no joining once the card is revealed");
    g.act(0, "option:1"); // recover 2 health
    assert_eq!((g.ship(0).health, g.ship(1).health), (4, 2), "the outsider gains nothing");
}
