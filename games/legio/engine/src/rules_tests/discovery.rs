//! Discovering a planet: rulebook "Découvrir une planète" (p. 10) and "La
//! Nébuleuse Rouge" (p. 6).

use super::*;

/// p. 10 and R6: a sector takes a discovery while its planets (explored
/// and active) are fewer than its limit for the number of commanders (the
/// text's "≤" read as "<"); p. 6: S1 allows 3 with 2 commanders and 6 with
/// 4, S3 allows 5 with 2.
#[test]
fn decouvrir_une_planete_the_limit_reads_strictly_below() {
    let c = Content::get();
    assert_eq!((c.nebula.limit(0, 2), c.nebula.limit(0, 4), c.nebula.limit(2, 2)), (3, 6, 5));
    let mut g = ready(2, 1);
    g.pb.explored[2] = 4;
    assert!(g.can_discover(2));
    g.pb.explored[2] = 5;
    assert!(!g.can_discover(2));
    g.pb.explored[2] = 3;
    g.put_planet(0, 2, "a05", 0);
    assert!(g.can_discover(2));
    g.put_planet(1, 2, "a07", 0);
    assert!(!g.can_discover(2), "active planets count");
    assert!(!g.can_discover(crate::content::SECTOR_X));
}

/// p. 10, the rulebook's example: in zone A the discoverer picks the face-up
/// A contact; the other A card is revealed and slides into its slot, and
/// the top of the A pile takes the face-down slot; a marker shows the
/// discoverer.
#[test]
fn decouvrir_une_planete_zone_a_the_other_a_card_slides_and_is_revealed() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.ship_mut(s).sector = 2;
    let (up, down, top) = (g.pb.contact_a1, g.hid.contacts[0], g.hid.piles[0].last().copied());
    g.give(s, &["e44"]);
    g.pick("explore:e44");
    assert_eq!(g.ids(), ["contact:face_up", "contact:face_down"]);
    let ev = g.pick("contact:face_up");
    let planet = g.pb.planets[0].expect("alpha is active");
    assert_eq!((Some(planet.card), planet.sector, planet.discoverer), (up, 2, s));
    assert_eq!(g.pb.contact_a1, down);
    assert!(ev.iter().any(|e| matches!(e, Event::ContactRevealed { .. })));
    assert_eq!(g.hid.contacts[0], top);
    assert_eq!(g.hid.piles[0].len(), 21);
}

/// p. 10: in zone B the B contact is taken; the B pile refills the slot.
#[test]
fn decouvrir_une_planete_zone_b_takes_the_b_contact() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.ship_mut(s).sector = 4;
    let b = g.hid.contacts[1];
    g.give(s, &["e45"]);
    g.pick("explore:e45");
    assert_eq!(g.pb.planets[0].map(|p| p.card), b);
    assert!(g.pb.contact_down[1]);
    assert!(g.pb.contact_seen[1].is_empty(), "the new card is unknown to all");
}

/// p. 10 and R12: with 5 cards or more drawn, all of them may be discarded
/// to discover a planet, straight after the draw.
#[test]
fn decouvrir_une_planete_five_cards_drawn_may_all_be_discarded() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.ship_mut(s).tracks.propulsors = 4;
    g.pick("draw:5");
    assert!(g.has("discard_all_to_discover"));
    let mut h = g.clone();
    h.pick("discard_all_to_discover");
    assert!(h.hand(s).is_empty());
    assert!(matches!(h.pb.pending, Pending::Contact { .. }));
    g.pick("equip:laser");
    while matches!(g.pb.pending, Pending::Pay { .. }) {
        let id = g.ids()[0].clone();
        g.pick(&id);
    }
    assert!(!g.has("discard_all_to_discover"), "only before anything else");
    let mut g = ready(2, 2);
    g.pick("draw:4");
    assert!(!g.has("discard_all_to_discover"), "4 cards are not enough");
}

/// p. 3 "52 compteurs, 13 par couleur" and p. 10 "Posez l'un de vos
/// marqueurs" (revision 1): a commander has 5 discovery markers (13 less
/// the 8 on its board and the Xeno track); a marker stays with its
/// planet's card, so with none left it discovers nothing, by a card or by
/// the 5-card discard. Revision 0 had no such limit.
#[test]
fn decouvrir_une_planete_a_commander_without_markers_discovers_nothing() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.ship_mut(s).tracks.propulsors = 4;
    g.ship_mut(s).trophies = vec![xs("a10"), xs("a11"), xs("a12"), xs("a13")];
    g.put_planet(0, 2, "a14", s);
    assert_eq!(g.discovery_markers_left(s), 0);
    assert_eq!(g.discovery_markers_left(g.next_seat(s)), DISCOVERY_MARKERS);
    let mut old = g.clone();
    old.revision_0();
    for (g, allowed) in [(&mut g, false), (&mut old, true)] {
        g.pick("draw:5");
        assert_eq!(g.has("discard_all_to_discover"), allowed);
        g.give(s, &["e44"]);
        assert_eq!(g.has("explore:e44"), allowed);
    }
    g.pb.planets[0] = None;
    assert_eq!(g.discovery_markers_left(s), 1, "an active planet's marker counts until its card is won");
    assert!(g.has("explore:e44"));
}
