//! The Xeno track and the Star Base: rulebook "L'échelle XENO" (p. 14),
//! "Explorer le secteur X" (p. 9), "Retour à la Base Stellaire",
//! "Réparation", "Promotion" (p. 14).

use super::*;
use crate::content::{BASE, Domain, SECTOR_X};

/// p. 14, 6 PX: the commander learns the Holodeck or the Nanoprobes, one
/// permanent point for sapiens or non-sapiens missions (R4).
#[test]
fn echelle_xeno_six_px_teaches_holodeck_or_nanoprobes() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.ship_mut(s).px = 5;
    g.give(s, &["e38"]);
    g.ship_mut(s).px = 5;
    g.pick("explore:e38");
    assert_eq!(g.pb.pending, Pending::Tech { seat: s });
    let before = g.ship(s).permanent(Domain::Capture);
    g.pick("tech:nanoprobes");
    assert_eq!(g.ship(s).permanent(Domain::Capture), before + 1);
    assert_eq!(g.pb.pending, Pending::Turn { seat: s });
}

/// p. 9 and p. 14, R2: Sector X from 9 PX, for 6 cards from any sector,
/// once per game (the special-mission counter, R3); the X pile is chosen
/// from, one card kept face up, its gift applied; no exploring or landing
/// there; the ship may stay across turns; it leaves for 3 cards, to the
/// Star Base only.
#[test]
fn explorer_le_secteur_x_from_nine_px_once_and_back_to_the_base() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.ship_mut(s).sector = 4;
    g.give(s, &["e01", "e02", "e03", "e04", "e05", "e06", "e07"]);
    g.ship_mut(s).px = 8;
    assert!(!g.has("enter_sector_x"), "8 PX are not enough (R2)");
    g.ship_mut(s).px = 9;
    g.pick("enter_sector_x");
    while matches!(g.pb.pending, Pending::Pay { .. }) {
        let id = g.ids()[0].clone();
        g.pick(&id);
    }
    assert_eq!(g.ship(s).sector, SECTOR_X);
    assert_eq!(g.ids(), ["x_card:x1", "x_card:x2", "x_card:x3", "x_card:x4", "x_card:x5"]);
    g.pick("x_card:x1");
    assert_eq!(g.ship(s).px, 11);
    assert_eq!(g.ship(s).x_cards, [xs("x1")]);
    assert!(!g.ids().iter().any(|i| i.starts_with("explore:") || i.starts_with("move:")));
    assert!(!g.has("leave_sector_x"), "one card left: 3 are needed");
    g.pick("end_turn");
    let other = g.pb.active;
    g.turn_of(s);
    assert_ne!(other, s);
    assert_eq!(g.ship(s).sector, SECTOR_X, "still there on the next turn");
    g.give(s, &["e08", "e09", "e10"]);
    g.pick("leave_sector_x");
    assert_eq!(g.ship(s).sector, BASE);
    g.give(s, &["e01", "e02", "e03", "e04", "e05", "e06"]);
    assert!(!g.has("enter_sector_x"), "only once in the game");
}

/// p. 9 and the issue: the X pile is shown to the ship entering Sector X
/// only, and that step cannot be undone.
#[test]
fn explorer_le_secteur_x_the_pile_is_shown_to_the_entering_ship_only() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    let o = g.next_seat(s);
    g.turn_of(s);
    g.ship_mut(s).px = 9;
    g.give(s, &["e01", "e02", "e03", "e04", "e05", "e06"]);
    assert!(g.view(Viewer::Seat(s)).mine.expect("seat").pile_x.is_none());
    let (ev, undo) = g.apply_checked(s, "enter_sector_x").expect("legal");
    assert!(!undo && !undoable(&ev), "the step that shows the X pile cannot be undone");
    assert_eq!(g.view(Viewer::Seat(s)).mine.expect("seat").pile_x.map(|p| p.len()), Some(5));
    assert!(g.view(Viewer::Seat(o)).mine.expect("seat").pile_x.is_none());
    assert!(g.view(Viewer::Seat(o)).decision.is_none());
    g.pick("x_card:x3");
    assert_eq!(g.view(Viewer::Seat(s)).mine.expect("seat").pile_x.map(|p| p.len()), Some(4));
}

/// p. 14 "Promotion": the first return to the Star Base with 12 PC or more
/// flips the board to the Spatha: the Imperator counter, technology,
/// experience (and the special-mission counter, R3) stay; the tracks go to
/// the Spatha's grey boxes; a new profile may be set and 2 experts are
/// recruited (the Frombola's go back, R8).
#[test]
fn promotion_the_first_return_with_twelve_pc_flips_the_board() {
    let c = Content::get();
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    {
        let sh = g.ship_mut(s);
        sh.sector = 1;
        sh.pc = 12;
        sh.imperator_calls = 1;
        sh.tech = Some(Tech::Nanoprobes);
        sh.experience = [1, 2];
        sh.special_missions = 1;
    }
    let diplomats = g.pb.supply.get(ExpertKind::Diplomat);
    g.give(s, &["e01"]);
    g.pick("move:s1");
    assert_eq!(g.pb.pending, Pending::Profile { seat: s, promotion: true });
    g.pick("profile:3");
    assert_eq!(g.pb.pending, Pending::Expert { seat: s, promotion: true });
    g.pick("expert:hunter");
    g.pick("expert:adventurer");
    let sh = g.ship(s);
    assert_eq!(sh.side, Side::Spatha);
    assert_eq!(sh.tracks, c.side(Side::Spatha).start);
    assert_eq!(sh.experts, Experts([0, 1, 1]));
    assert_eq!(
        (sh.imperator_calls, sh.tech, sh.experience, sh.special_missions, sh.profile),
        (1, Some(Tech::Nanoprobes), [1, 2], 1, 3)
    );
    assert_eq!(g.pb.supply.get(ExpertKind::Diplomat), diplomats + 1);
    assert_eq!(g.pb.pending, Pending::Turn { seat: s });
}

/// p. 14 "Promotion" and R8: a commander starting its turn at the Star Base
/// with 12 PC is promoted before drawing, so it draws as a Spatha.
#[test]
fn promotion_at_the_start_of_a_turn_comes_before_the_draw() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    let o = g.next_seat(s);
    g.ship_mut(o).pc = 12;
    g.pick("draw:0");
    g.pick("end_turn");
    assert_eq!(g.pb.pending, Pending::Profile { seat: o, promotion: true });
    g.pick("profile:1");
    g.pick("expert:diplomat");
    g.pick("expert:diplomat");
    assert_eq!(g.pb.pending, Pending::Draw { seat: o });
    assert_eq!(g.ids().len(), 6, "a Spatha's 3 propulsors draw 5");
}

/// p. 14 "Réparation ... en le remettant dans sa configuration initiale"
/// and R8 (revision 1): at the Star Base (S1) every equipment track and
/// the squads go back to their grey box, down as well as up; experts stay;
/// the exploration ends for the turn; a ship on its grey boxes is not
/// offered a repair.
#[test]
fn reparation_resets_the_ship_to_its_initial_configuration() {
    let c = Content::get();
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    assert!(!g.has("repair"), "nothing to reset");
    g.give(s, &["e01", "e02", "e03"]);
    let experts = g.ship(s).experts;
    {
        let t = &mut g.ship_mut(s).tracks;
        t.lasers = 0;
        t.squads = 1;
        t.propulsors = 4;
        t.detectors = 1;
    }
    g.pick("repair");
    assert_eq!(g.ship(s).tracks, c.side(Side::Frombola).start);
    assert_eq!(g.ship(s).experts, experts);
    assert!(!g.ids().iter().any(|i| i.starts_with("explore:") || i.starts_with("recruit:")));
    g.turn_of(s);
    g.ship_mut(s).tracks.propulsors = 3;
    assert!(g.has("repair"), "a track above its grey box is reset too");
}

/// p. 14 "Réparation" and R8, revision 0: every track below its grey box
/// went back to it (upgrades stayed); the exploration ends for the turn.
#[test]
fn reparation_revision_0_restores_the_grey_boxes_and_ends_the_exploration() {
    let mut g = ready(2, 1);
    g.revision_0();
    let s = g.pb.active;
    g.turn_of(s);
    g.give(s, &["e01", "e02", "e03"]);
    {
        let t = &mut g.ship_mut(s).tracks;
        t.lasers = 0;
        t.squads = 1;
        t.propulsors = 4;
        t.decoder = 0;
    }
    g.pick("repair");
    let t = g.ship(s).tracks;
    assert_eq!((t.lasers, t.squads, t.propulsors, t.decoder), (1, 2, 4, 1));
    assert!(!g.ids().iter().any(|i| i.starts_with("explore:") || i.starts_with("recruit:") || i.starts_with("move:")));
    assert!(g.has("end_turn"));
    g.turn_of(s);
    g.ship_mut(s).sector = 1;
    g.ship_mut(s).tracks.lasers = 0;
    assert!(!g.has("repair"), "only at the Star Base");
}
