//! Exploring: rulebook "Explorer" (p. 8), "Expérience et gain
//! d'expérience" (p. 8-9), "Combat Spatial" (p. 15), "Retour à la Base
//! Stellaire" (p. 14).

use super::*;
use crate::content::Loss;

/// p. 8-9: a card played face up teaches the experience printed on it, up
/// to the memory of the ship (the table's 0-3 on a Frombola).
#[test]
fn experience_a_signal_teaches_its_domain_up_to_the_memory() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.give(s, &["e01", "e03"]);
    g.pick("explore:e01");
    assert_eq!(g.ship(s).experience, [1, 0]);
    assert_eq!(g.pb.discard_up, [ex("e01")], "played face up");
    g.ship_mut(s).experience[0] = 3;
    g.pick("explore:e03");
    assert_eq!(g.ship(s).experience, [3, 0], "memory full");
}

/// p. 9: a risk that cannot be confronted (too few cards to discard, Oz
/// ore below 3 PX) cannot be explored; the card serves another use.
#[test]
fn experience_a_risk_that_cannot_be_confronted_serves_another_use() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.give(s, &["e15"]);
    assert!(!g.has("explore:e15") && g.has("move:s2"));
    g.give(s, &["e01"]);
    g.pick("explore:e15");
    assert_eq!(g.hand(s).len(), 0, "the other card was discarded to the risk");
    assert_eq!(g.ship(s).experience, [0, 1]);
    g.give(s, &["e40"]);
    g.ship_mut(s).px = 2;
    assert!(!g.has("explore:e40"), "Oz ore from 3 PX only");
    g.ship_mut(s).px = 3;
    g.pick("explore:e40");
    assert_eq!(g.ship(s).pc, 2);
}

/// p. 15, the rulebook's example: a Spatha with 1 laser meets a bireme
/// needing 2: one d10 for the missing laser, a 7 takes the decoder to 0,
/// and the systematic laser loss follows; a laser was installed at the
/// start, so the trophy is won.
#[test]
fn combat_spatial_one_roll_per_missing_laser_and_always_one_laser_lost() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.ship_mut(s).tracks.detectors = 0;
    g.ship_mut(s).tracks.lasers = 1;
    g.give(s, &["e33"]);
    g.rig(&[7]);
    let ev = g.pick("explore:e33");
    assert!(ev.contains(&Event::DamageRolled { seat: s, face: 7, loss: Loss::Decoder }));
    assert_eq!(ev.iter().filter(|e| matches!(e, Event::DamageRolled { .. })).count(), 1);
    let t = g.ship(s).tracks;
    assert_eq!((t.decoder, t.lasers), (0, 0));
    assert_eq!(g.ship(s).pc, 2, "trophy: a laser was installed at the start");
    // The lost laser is told, so the log explains the track's drop.
    assert!(ev.iter().any(|e| matches!(e, Event::Fought { trophy: true, lost_laser: true, .. })), "{ev:?}");
}

/// p. 15: with no laser at the start there is no trophy; enough lasers,
/// no roll, but one laser is still lost.
#[test]
fn combat_spatial_the_trophy_needs_a_laser_at_the_start() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.ship_mut(s).tracks.lasers = 0;
    g.give(s, &["e29", "e32"]);
    g.rig(&[10]);
    let ev = g.pick("explore:e29");
    assert!(ev.contains(&Event::Fought { seat: s, needed: 1, had: 0, trophy: false, lost_laser: false }));
    assert_eq!(g.ship(s).pc, 0);
    g.ship_mut(s).tracks.lasers = 3;
    let ev = g.pick("explore:e32");
    assert!(!ev.iter().any(|e| matches!(e, Event::DamageRolled { .. })));
    assert_eq!((g.ship(s).tracks.lasers, g.ship(s).pc), (2, 2));
}

/// p. 15 and R9: a risk detector lets the ship avoid the Xeno ship (no
/// fight, no trophy, no experience, one detector used); without one the
/// fight cannot be refused.
#[test]
fn combat_spatial_a_risk_detector_evades_and_without_one_no_refusal() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.ship_mut(s).tracks.detectors = 1;
    g.give(s, &["e29", "e30"]);
    g.pick("explore:e29");
    assert_eq!(g.ids(), ["fight", "evade"]);
    let lasers = g.ship(s).tracks.lasers;
    g.pick("evade");
    assert_eq!((g.ship(s).tracks.detectors, g.ship(s).tracks.lasers), (0, lasers));
    assert_eq!(g.ship(s).experience, [0, 0]);
    g.pick("explore:e30");
    assert!(matches!(g.pb.pending, Pending::Turn { .. }), "no detector: fought at once");
    assert_eq!(g.ship(s).tracks.lasers, lasers - 1);
}

/// p. 14 "Retour à la Base Stellaire": some risks send the ship straight
/// back to the Star Base; a hazard rolls once on the damage table.
#[test]
fn retour_a_la_base_stellaire_a_drift_sends_the_ship_home_and_a_hazard_rolls_once() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.ship_mut(s).sector = 4;
    g.give(s, &["e52", "e55"]);
    g.pick("explore:e52");
    assert_eq!(g.ship(s).sector, 0);
    g.rig(&[3]);
    let squads = g.ship(s).tracks.squads;
    g.pick("explore:e55");
    assert_eq!(g.ship(s).tracks.squads, squads - 1, "3-4: a squad");
}
