//! The turn: rulebook "Le Tour de Jeu" (p. 7), "Recruter/S'équiper" (p. 7),
//! "Se déplacer" (p. 7), "Décrypter les signaux extrasolaires" (p. 8),
//! "Gestion du deck Exploration" (p. 10), "Les Personnels" (p. 5).

use super::*;

/// p. 7 step 1: draw as many cards as wanted, up to what the propulsors
/// give (the propulsor-to-cards table of the ship board).
#[test]
fn tour_de_jeu_draw_zero_to_the_propulsor_table() {
    let mut g = ready(2, 1);
    let seat = g.pb.active;
    assert_eq!(g.ids(), ["draw:0", "draw:1", "draw:2", "draw:3", "draw:4"], "2 propulsors: 4 cards");
    g.ship_mut(seat).tracks.propulsors = 0;
    assert_eq!(g.ids(), ["draw:0", "draw:1"]);
    g.ship_mut(seat).tracks.propulsors = 4;
    assert_eq!(g.ids().len(), 7, "4 propulsors: 6 cards");
    g.pick("draw:3");
    assert_eq!(g.hand(seat).len(), 3);
    assert_eq!(g.pb.pending, Pending::Turn { seat });
}

/// p. 7 step 1 (bold): each card left unused at the end of the turn costs
/// 1 PC; R10: the score does not go below 0.
#[test]
fn tour_de_jeu_each_unused_card_costs_one_pc() {
    let mut g = ready(2, 1);
    let seat = g.pb.active;
    g.ship_mut(seat).pc = 5;
    g.pick("draw:3");
    g.pick("end_turn");
    assert_eq!(g.ship(seat).pc, 2);
    assert!(g.hand(seat).is_empty());
    assert_eq!(g.hid.discard_down.len(), 3, "discarded face down");
    let other = g.pb.active;
    assert_ne!(other, seat);
    g.ship_mut(other).pc = 1;
    g.pick("draw:3");
    g.pick("end_turn");
    assert_eq!(g.ship(other).pc, 0, "never below 0");
}

/// p. 7: 3 cards for one more personnel, 2 for one more equipment, 1 to go
/// from 0 to 1 propulsor; paid face down, one chosen card at a time.
#[test]
fn recruter_sequiper_three_cards_a_personnel_two_an_equipment_one_the_first_propulsor() {
    let mut g = ready(2, 3);
    let s = g.pb.active;
    g.turn_of(s);
    g.give(s, &["e01", "e02", "e03", "e04", "e05"]);
    let squads = g.ship(s).tracks.squads;
    g.pick("recruit:squad");
    assert!(matches!(g.pb.pending, Pending::Pay { left: 3, .. }));
    g.pick("discard:e01");
    g.pick("discard:e02");
    g.pick("discard:e03");
    assert_eq!(g.ship(s).tracks.squads, squads + 1);
    assert_eq!(g.hand(s).len(), 2);
    let lasers = g.ship(s).tracks.lasers;
    g.pick("equip:laser");
    assert_eq!(g.ship(s).tracks.lasers, lasers + 1, "the last two cards paid at once");
    assert!(g.hand(s).is_empty());
    g.ship_mut(s).tracks.propulsors = 0;
    g.give(s, &["e06"]);
    assert!(g.has("equip:propulsor") && !g.has("equip:laser"));
    g.pick("equip:propulsor");
    assert_eq!(g.ship(s).tracks.propulsors, 1);
}

/// p. 5 "Les Personnels": a Frombola holds at most 4 experts; experts come
/// from a limited supply.
#[test]
fn les_personnels_a_frombola_holds_at_most_four_experts() {
    let mut g = ready(2, 3);
    let s = g.pb.active;
    g.turn_of(s);
    g.give(s, &["e01", "e02", "e03"]);
    g.ship_mut(s).experts = Experts([2, 1, 1]);
    assert!(!g.has("recruit:diplomat") && !g.has("recruit:hunter") && g.has("recruit:squad"));
    g.ship_mut(s).experts = Experts([2, 1, 0]);
    g.pb.supply = Experts([0, 3, 3]);
    assert!(!g.has("recruit:diplomat") && g.has("recruit:hunter"), "the supply has no diplomat left");
}

/// p. 7 "Se déplacer": crossing a border costs the cards its icon shows,
/// face down; too few cards, no crossing.
#[test]
fn se_deplacer_each_border_costs_its_cards_face_down() {
    let mut g = ready(2, 5);
    let s = g.pb.active;
    g.turn_of(s);
    g.give(s, &["e01", "e02"]);
    assert!(g.has("move:s2") && g.has("move:s3") && !g.has("move:s4"));
    let ev = g.pick("move:s3");
    assert_eq!(g.ship(s).sector, 2);
    assert!(ev.contains(&Event::DiscardedFaceDown { seat: s, cards: 2 }));
    assert!(g.pb.discard_up.is_empty(), "nobody sees which cards paid the trip");
    g.give(s, &["e03"]);
    assert!(g.has("move:s2") && !g.has("move:s4") && !g.has("move:s5"), "S3-S4 and S3-S5 cost 3");
}

/// p. 8: the decoder once per turn; level 1 shows the face-down A contact
/// for 1 card, level 2 also the B contact for 2; only the decoder sees it.
#[test]
fn decrypter_once_per_turn_level_one_for_a_level_two_for_b() {
    let mut g = ready(3, 5);
    let s = g.pb.active;
    g.turn_of(s);
    g.give(s, &["e01", "e02", "e03", "e04"]);
    assert!(g.has("decode:a") && !g.has("decode:b"));
    g.ship_mut(s).tracks.decoder = 2;
    assert!(g.has("decode:b"));
    g.pick("decode:b");
    g.pick("discard:e01");
    g.pick("discard:e02");
    assert!(!g.has("decode:a"), "once per turn");
    let other = g.next_seat(s);
    assert_eq!(g.view(Viewer::Seat(s)).mine.expect("seat").contacts, [None, g.hid.contacts[1]]);
    assert_eq!(g.view(Viewer::Seat(other)).mine.expect("seat").contacts, [None, None]);
    g.ship_mut(s).tracks.decoder = 0;
    g.pb.turn.decoded = false;
    assert!(!g.has("decode:a"), "a decoder at 0 decodes nothing");
}

/// p. 10: when the deck runs out, the discard is shuffled into a new deck.
#[test]
fn gestion_du_deck_exploration_the_discard_is_reshuffled() {
    let mut g = ready(2, 7);
    let s = g.pb.active;
    let rest: Vec<u8> = g.hid.deck.drain(1..).collect();
    g.hid.discard_down.extend(rest.iter().map(|&c| (c, s)));
    let ev = g.pick("draw:3");
    assert_eq!(g.hand(s).len(), 3);
    assert!(ev.contains(&Event::DeckReshuffled));
    assert_eq!(g.exploration_cards_everywhere(), 57);
}

/// p. 7 "Recruter/S'équiper", "Se déplacer" and step 1 (bold): every option
/// says its price before it is picked (3 cards a personnel, 2 an
/// equipment, each border its icon's cards, 1 PC for each card left at the
/// end), and one that takes every card left in hand says so, since the
/// engine then pays with them all at once (no pick of which).
#[test]
fn le_tour_de_jeu_each_option_shows_its_price_and_a_whole_hand_is_flagged() {
    let mut g = ready(2, 5);
    let s = g.pb.active;
    g.turn_of(s);
    g.ship_mut(s).pc = 5;
    g.give(s, &["e01", "e02", "e03"]);
    let price = |g: &Game, id: &str| {
        let d = g.decision();
        let o = d.options.into_iter().find(|o| o.id == id).unwrap_or_else(|| panic!("{id} offered"));
        (o.price, o.label)
    };
    let (recruit, label) = price(&g, "recruit:squad");
    assert_eq!((recruit.cards, recruit.whole_hand), (3, true), "3 cards of 3: the whole hand");
    assert!(label.ends_with("(3 cards: your whole hand)"), "{label}");
    let (laser, label) = price(&g, "equip:laser");
    assert_eq!((laser.cards, laser.whole_hand), (2, false));
    assert!(label.ends_with("(2 cards)"), "{label}");
    let (s2, _) = price(&g, "move:s2");
    let (s3, label) = price(&g, "move:s3");
    assert_eq!((s2.cards, s3.cards), (1, 2), "S1-S2 costs 1, S1-S3 costs 2");
    assert!(label.starts_with("Cross into Sector 3"), "{label}");
    let (end, label) = price(&g, "end_turn");
    assert_eq!((end.cards, end.pc), (3, -3), "3 cards left cost 3 PC");
    assert!(label.contains("3 cards left in hand: -3 PC"), "{label}");
    // Paying the price matches what the label said.
    let before = g.ship(s).pc;
    g.pick("end_turn");
    assert_eq!(g.ship(s).pc, before - 3);
}
