//! Every change a player sees has a log line that says what caused it
//! (issue 52): the Exploration card before its effects, an Enemy's
//! regeneration, and the reason for each engagement.

use super::*;
use crate::content::ExplorationType;
use crate::event::{EngageCause, RollPurpose};

fn exploration_index(id: &str) -> u8 {
    Content::get().explorations.iter().position(|e| e.id == id).expect("exploration id") as u8
}

/// p. 10: an Exploration card is revealed, then resolved. The log names the
/// card (and a Danger's Skill Roll target) before the roll it calls for.
#[test]
fn p10_an_exploration_card_is_named_before_its_skill_roll() {
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    let danger = exploration_index("dormant_swarm");
    g.hid.exploration_deck.push(danger);
    g.begin(0);
    g.act(0, "jump:1,0");
    let ev = g.act(0, "explore");
    let def = &Content::get().explorations[danger as usize];
    let drawn = ev.iter().position(|e| {
        matches!(e, Event::ExplorationDrawn { card, kind: ExplorationType::Danger, skill }
            if card == "dormant_swarm" && *skill == def.skill.unwrap_or(0))
    });
    let rolled = ev.iter().position(|e| matches!(e, Event::DiceRolled { purpose: RollPurpose::Skill, .. }));
    assert!(drawn.is_some() && rolled.is_some() && drawn < rolled, "{ev:?}");
    let line = ev[drawn.unwrap_or(0)].summary();
    assert!(line.contains("dormant_swarm") && line.contains("Danger") && line.contains("Skill Roll"), "{line}");
    // A Warning is named too, before its options are offered.
    let mut g = game4();
    g.put_tile("A02", h(1, 0));
    g.hid.exploration_deck.push(exploration_index("ion_storm"));
    g.begin(0);
    g.act(0, "jump:1,0");
    let ev = g.act(0, "explore");
    assert!(ev.iter().any(|e| matches!(e, Event::ExplorationDrawn { kind: ExplorationType::Warning, .. })));
}

/// An Enemy's Regenerate ability (its card: "if it survives an attack, it
/// recovers health") is logged with what it repaired.
#[test]
fn enemy_card_regeneration_is_logged() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    g.put_enemy("harrow_titan", h(1, 0));
    g.pb.board_enemies[0].damage = 3; // left there, damaged
    g.pb.ships[0].health = 40;
    g.pb.ships[0].max_health = 40;
    g.act(0, "engage");
    g.act(0, "attack:enemy:0");
    // An attack that leaves it standing: Regenerate (2) repairs 2 of its 3
    // damage or more.
    let (g, ev) = find(&g, 0, "offense:0", |_, ev| {
        ev.iter().any(|e| matches!(e, Event::TargetDamaged { health_left, .. } if *health_left > 0))
    });
    let health = Content::get().enemies[enemy_index("harrow_titan") as usize].health;
    let left = health - g.pb.board_enemies[0].damage;
    assert!(
        ev.iter().any(|e| matches!(e, Event::Regenerated { target, amount: 2, health_left }
            if target == "harrow_titan" && *health_left == left)),
        "{ev:?}"
    );
    let line = ev.iter().find(|e| matches!(e, Event::Regenerated { .. })).map(Event::summary).unwrap_or_default();
    assert_eq!(line, format!("harrow_titan regenerates 2 damage ({left} health left)"));
    // Nothing to repair, nothing logged: an attack that does no damage to
    // an undamaged Titan.
    let g = fight_again();
    let (_, ev) =
        find(&g, 0, "offense:0", |_, ev| ev.iter().any(|e| matches!(e, Event::TargetDamaged { damage: 0, .. })));
    assert!(!ev.iter().any(|e| matches!(e, Event::Regenerated { .. })), "{ev:?}");
}

/// Captain 0 engaged with an undamaged Harrow Titan, its attack chosen.
fn fight_again() -> Game {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.begin(0);
    g.act(0, "jump:1,0");
    g.put_enemy("harrow_titan", h(1, 0));
    g.pb.ships[0].health = 40;
    g.pb.ships[0].max_health = 40;
    g.act(0, "engage");
    g.act(0, "attack:enemy:0");
    g
}

/// FAQ, "Avatars": an Avatar always detects. A group that slips past the
/// patrol beside an Avatar is engaged by the Avatar: the line after "slips
/// by undetected" says so (rules revision 4's fight with the Avatar alone).
#[test]
fn faq_avatars_an_engagement_after_slipping_by_says_the_avatar_engages() {
    let g = super::corruption::beside_an_avatar_and_a_left_enemy(crate::RULES_REVISION, false);
    let (_, ev) = find(&g, 0, "roll_detection", |_, ev| ev.iter().any(|e| matches!(e, Event::Undetected { .. })));
    let slipped = ev.iter().position(|e| matches!(e, Event::Undetected { .. })).unwrap_or(usize::MAX);
    let engaged = ev.iter().rposition(|e| matches!(e, Event::Engaged { cause: EngageCause::Avatar, .. }));
    assert!(engaged.is_some_and(|i| i > slipped), "{ev:?}");
    let line = ev[engaged.unwrap_or(0)].summary();
    assert!(line.contains("engaged") && line.contains("by the Avatar"), "{line}");
    // A failed roll says the roll failed; choosing the fight says so.
    let (_, ev) = find(&g, 0, "roll_detection", |_, ev| !ev.iter().any(|e| matches!(e, Event::Undetected { .. })));
    assert!(ev.iter().any(|e| matches!(e, Event::Engaged { cause: EngageCause::Detected, .. })), "{ev:?}");
    let ev = g.clone().act(0, "engage");
    assert!(ev.iter().any(|e| matches!(e, Event::Engaged { cause: EngageCause::Voluntary, .. })), "{ev:?}");
}

/// Every engagement the engine logs has a cause.
#[test]
fn every_engagement_of_random_games_has_a_cause() {
    for seed in 0..6u64 {
        let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).expect("valid config");
        let mut rng = GameRng::new(seed);
        for _ in 0..1500 {
            let d = g.decision();
            if d.options.is_empty() {
                break;
            }
            let o = &d.options[rng.below(d.options.len() as u32) as usize];
            let seat = o.seats[rng.below(o.seats.len() as u32) as usize];
            let ev = g.apply(seat, &o.id).unwrap_or_else(|e| panic!("offered option refused: {e}"));
            for e in &ev {
                assert!(!matches!(e, Event::Engaged { cause: EngageCause::Unstated, .. }), "seed {seed}: {e:?}");
            }
            if g.pb.outcome.is_some() {
                break;
            }
        }
    }
}

/// p. 18 and FAQ, "Ennemis et Combats": in the End phase the Pacify
/// markers change (red lifted, green turned red) and the Enemy cards on
/// the board go back into the deck, except where a captain hides. Each
/// change is logged.
#[test]
fn p18_the_end_phase_logs_its_pacify_markers_and_the_enemies_it_returns() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.put_tile("E02", h(2, 0));
    g.put_tile("E03", h(0, 1));
    for (hex, p) in [(h(1, 0), Pacified::Red), (h(2, 0), Pacified::Green)] {
        if let Some(t) = g.tile_at_mut(hex) {
            t.pacified = Some(p);
        }
    }
    g.put_enemy("harrow_titan", h(0, 1));
    g.put_enemy("choir_warden", h(2, 0));
    g.put_ship(1, h(2, 0));
    g.pb.ships[1].hidden = true;
    let mut ev = Vec::new();
    g.end_phase(&mut ev);
    let turned = Event::PacifyMarkersTurned { lifted: vec![h(1, 0)], turned: vec![h(2, 0)] };
    assert!(ev.contains(&turned), "{ev:?}");
    assert_eq!(turned.summary(), "End phase: Pacify markers lifted at (1,0) (pacified no more); turned red at (2,0)");
    let returned = Event::EnemiesReturned { enemies: vec!["harrow_titan".into()] };
    assert!(ev.contains(&returned), "the Enemy beside the hidden captain stays: {ev:?}");
    assert!(returned.summary().contains("harrow_titan go back into the Enemy deck"));
    // Nothing to change, nothing logged.
    let mut ev = Vec::new();
    let mut g = game4();
    g.end_phase(&mut ev);
    assert!(!ev.iter().any(|e| matches!(e, Event::PacifyMarkersTurned { .. } | Event::EnemiesReturned { .. })));
}

/// FAQ, "Ennemis et Combats": one Combat board; engaging a new Enemy or
/// Avatar replaces the one on it, "réparant" its damage. The log says which
/// foes lost their damage, after the engagement that caused it.
#[test]
fn faq_enemies_and_combats_a_foe_replaced_on_the_combat_board_is_logged_as_repaired() {
    let mut g = game4();
    g.put_tile("E01", h(1, 0));
    g.put_tile("E07", h(0, 1));
    g.put_enemy("harrow_titan", h(1, 0));
    g.pb.board_enemies[0].damage = 3;
    g.put_enemy("watcher_drone", h(0, 1));
    g.put_ship(0, h(0, 1));
    let mut ev = Vec::new();
    g.start_fight(&[0], h(0, 1), EngageCause::Voluntary, &mut ev);
    let engaged = ev.iter().position(|e| matches!(e, Event::Engaged { .. }));
    let repaired = ev.iter().position(|e| *e == Event::FoesRepaired { foes: vec!["harrow_titan".into()] });
    assert!(engaged.is_some() && repaired.is_some() && engaged < repaired, "{ev:?}");
    assert_eq!(ev[repaired.unwrap_or(0)].summary(), "harrow_titan leaves the Combat board and is repaired");
    // An undamaged foe has nothing to lose: no line.
    let mut ev = Vec::new();
    g.start_fight(&[0], h(1, 0), EngageCause::Voluntary, &mut ev);
    assert!(!ev.iter().any(|e| matches!(e, Event::FoesRepaired { .. })), "{ev:?}");
}
