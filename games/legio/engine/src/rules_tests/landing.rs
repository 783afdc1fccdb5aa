//! Landing: rulebook "Se poser sur une planète" (p. 11) and "Utilisation de
//! l'Imperator" (p. 13).

use super::*;

/// Three ships in S2 with a planet `b` discovered; `a` to play: (g, a, b, c).
fn three_in_s2() -> (Game, Seat, Seat, Seat) {
    let mut g = ready(3, 4);
    let a = g.pb.active;
    let (b, c) = (g.next_seat(a), g.next_seat(g.next_seat(a)));
    for s in [a, b, c] {
        g.ship_mut(s).sector = 1;
    }
    g.put_planet(0, 1, "a02", b);
    g.turn_of(a);
    (g, a, b, c)
}

/// p. 11 "Toute combinaison de vaisseaux réunissant le nombre d'escouades
/// requises peut se poser" (revision 1): after a refusal the active
/// commander may invite another ship of the sector (never one that
/// declined), then land or give up.
#[test]
fn se_poser_after_a_refusal_another_ship_may_be_invited() {
    let (mut g, a, b, c) = three_in_s2();
    g.pick("land:alpha");
    g.pick("send_invitations");
    g.pick("decline");
    assert_eq!(g.pb.pending, Pending::Confirm { seat: a });
    assert_eq!(
        g.ids(),
        ["land_now".to_string(), format!("invite:{c}"), "land_with_imperator".into(), "abort_landing".into()]
    );
    assert!(!g.has(&format!("invite:{b}")), "a ship that declined is not asked again");
    g.pick(&format!("invite:{c}"));
    assert_eq!(g.pb.pending, Pending::Answer { seat: c });
    g.pick("accept");
    assert_eq!(g.ids(), ["land_now", "land_with_imperator", "abort_landing"], "nobody left to ask");
    let ev = g.pick("land_now");
    assert!(ev.contains(&Event::Landed { planet: 0, participants: vec![a, c], imperator: false }));

    // Revision 0: no second invitation after a refusal.
    let (mut g, _, _, _) = three_in_s2();
    g.revision_0();
    g.pick("land:alpha");
    g.pick("send_invitations");
    g.pick("decline");
    assert_eq!(g.ids(), ["land_now", "land_with_imperator", "abort_landing"]);
}

/// p. 11: the discoverer, present in the sector, must be invited and may
/// refuse; other commanders of the sector may be invited; an uninvited
/// commander cannot land.
#[test]
fn se_poser_the_discoverer_present_must_be_invited_and_may_refuse() {
    let mut g = ready(3, 4);
    let a = g.pb.active;
    let (b, c) = (g.next_seat(a), g.next_seat(g.next_seat(a)));
    for s in [a, b, c] {
        g.ship_mut(s).sector = 1;
    }
    g.put_planet(0, 1, "a02", b);
    g.turn_of(a);
    g.pick("land:alpha");
    assert_eq!(g.pb.landing.as_ref().map(|l| l.invited.clone()), Some(vec![b]));
    assert_eq!(g.ids(), [format!("invite:{c}"), "send_invitations".into()]);
    g.pick("send_invitations");
    assert_eq!(g.pb.pending, Pending::Answer { seat: b });
    g.pick("decline");
    assert_eq!(g.pb.pending, Pending::Confirm { seat: a });
    assert!(g.has("land_now") && g.has("abort_landing"));
    let ev = g.pick("land_now");
    assert!(ev.contains(&Event::Landed { planet: 0, participants: vec![a], imperator: false }));
}

/// p. 7 and p. 11: one landing per turn, on an active planet of the ship's
/// own sector; a landing discards the hand without the unused-card penalty;
/// R13: a landing given up still uses the turn's landing.
#[test]
fn se_poser_once_per_turn_in_the_ships_sector_hand_discarded_free() {
    let mut g = ready(2, 4);
    let a = g.pb.active;
    let b = g.next_seat(a);
    g.ship_mut(b).sector = 2;
    g.put_planet(0, 1, "a02", a);
    g.put_planet(1, 0, "a04", a);
    g.turn_of(a);
    g.ship_mut(a).pc = 4;
    g.give(a, &["e01", "e02"]);
    assert!(g.has("land:beta") && !g.has("land:alpha"));
    g.pick("land:beta");
    g.pick("abort_landing");
    assert!(!g.has("land:beta"), "once per turn");
    g.turn_of(a);
    g.give(a, &["e01", "e02"]);
    g.pick("land:beta");
    g.pick("land_now");
    assert!(g.hand(a).is_empty());
    assert!(g.ship(a).pc >= 4, "no penalty for cards discarded on landing");
}

/// p. 11 and p. 13: landing needs the squads the card asks for (the
/// Aeriformes ask 3); the Imperator lends those of its card.
#[test]
fn se_poser_without_enough_squads_the_imperator_lends_its_own() {
    let mut g = ready(2, 4);
    let a = g.pb.active;
    let b = g.next_seat(a);
    g.ship_mut(b).sector = 2;
    g.put_planet(0, 0, "a01", a);
    g.turn_of(a);
    g.ship_mut(a).tracks.squads = 2;
    g.pb.imperator.card = Some(0);
    g.hid.imperator_deck.retain(|&c| c != 0);
    g.pick("land:alpha");
    assert_eq!(g.ids(), ["land_with_imperator", "abort_landing"]);
    g.ship_mut(a).imperator_calls = g.config.imperator_calls();
    g.turn_of(a);
    assert!(!g.has("land:alpha"), "no more calls: 2 squads cannot land on the Aeriformes");
}

/// p. 13: the Imperator may be called 3 times by each commander, or 5
/// times with 2 commanders; each call moves the commander's counter.
#[test]
fn utilisation_de_l_imperator_three_calls_or_five_with_two_commanders() {
    assert_eq!(GameConfig::new(2, 0).imperator_calls(), 5);
    assert_eq!(GameConfig::new(3, 0).imperator_calls(), 3);
    assert_eq!(GameConfig::new(4, 0).imperator_calls(), 3);
    let mut g = ready(3, 4);
    let a = g.pb.active;
    g.ship_mut(a).imperator_calls = 2;
    assert!(g.imperator_squads_available(a) > 0);
    g.ship_mut(a).imperator_calls = 3;
    assert_eq!(g.imperator_squads_available(a), 0);
}
