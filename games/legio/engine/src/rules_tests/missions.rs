//! Missions: rulebook "Missions", "Séquence d'actions" (p. 12) and
//! "Utilisation de l'Imperator" (p. 13).

use super::*;
use crate::content::Domain;

/// Active commander `a` and the next seat `b` in sector `sector`, with a
/// planet of `card` discovered by `a`, profiles and experts cleared.
fn two_on(card: &str, sector: u8, players: u8) -> (Game, Seat, Seat) {
    let mut g = ready(players, 9);
    let a = g.pb.active;
    let b = g.next_seat(a);
    for s in [a, b] {
        g.ship_mut(s).sector = sector;
        let e = g.ship(s).experts;
        for k in ExpertKind::ALL {
            *g.pb.supply.get_mut(k) += e.get(k);
        }
        g.ship_mut(s).experts = Experts::default();
    }
    g.put_planet(0, sector, card, a);
    g.turn_of(a);
    (g, a, b)
}

/// Lands `a` with `b` (if `with_b`) and, if `imperator`, the Imperator.
fn land(g: &mut Game, b: Seat, with_b: bool, imperator: bool) -> Vec<Event> {
    g.pick("land:alpha");
    let invite = format!("invite:{b}");
    if with_b && g.has(&invite) {
        g.pick(&invite);
    }
    if matches!(g.pb.pending, Pending::Invite { .. }) {
        g.pick("send_invitations");
    }
    if with_b {
        g.pick("accept");
    }
    g.pick(if imperator { "land_with_imperator" } else { "land_now" })
}

/// Everyone leaves nobody and keeps everyone, to the end of the mission.
fn pass(g: &mut Game) -> Vec<Event> {
    let mut ev = Vec::new();
    while matches!(g.pb.pending, Pending::Star { .. } | Pending::Dismiss { .. }) {
        let id = if matches!(g.pb.pending, Pending::Star { .. }) { "leave_nobody" } else { "dismiss_nobody" };
        ev.extend(g.pick(id));
    }
    ev
}

/// p. 12 step 1, the rulebook's example: 5 PC between 2 commanders, 3 to
/// the one whose turn it is and 2 to the other.
#[test]
fn missions_pc_shared_equally_the_remainder_to_the_active_commander() {
    let (mut g, a, b) = two_on("a03", 1, 2);
    g.ship_mut(a).profile = 3;
    g.ship_mut(b).profile = 3;
    land(&mut g, b, true, false);
    pass(&mut g);
    assert_eq!((g.ship(a).pc, g.ship(b).pc), (3, 2));
}

/// p. 13, the rulebook's example: 6 PC for 2 commanders and the Imperator,
/// 2 each; the Imperator's pawn gains its card's PC; the next card is
/// turned up when the ships leave.
#[test]
fn utilisation_de_l_imperator_it_counts_as_a_participant_in_the_sharing() {
    let (mut g, a, b) = two_on("a14", 1, 3);
    g.pb.imperator.card = Some(0);
    g.hid.imperator_deck.retain(|&c| c != 0);
    land(&mut g, b, true, true);
    assert_eq!(g.pb.imperator.score, 2, "the example card: 2 PC for the Imperator");
    assert_eq!(g.ship(a).imperator_calls, 1);
    pass(&mut g);
    assert_eq!((g.ship(a).pc, g.ship(b).pc), (2, 2));
    assert_eq!(g.pb.imperator.discard, [0]);
    assert!(g.pb.imperator.card.is_some_and(|c| c != 0));
}

/// p. 12: Spathas on zone A missions get half their share, rounded down.
#[test]
fn missions_spathas_halve_their_zone_a_share() {
    let (mut g, a, b) = two_on("a03", 1, 2);
    g.ship_mut(a).profile = 3;
    g.ship_mut(a).side = Side::Spatha;
    g.ship_mut(a).tracks.squads = 2;
    g.ship_mut(a).experience = [0, 2];
    land(&mut g, b, false, false);
    pass(&mut g);
    assert_eq!(g.ship(a).experience, [0, 0], "the 2 missing points, spent");
    assert_eq!(g.ship(a).pc, 2, "5 halved");
}

/// p. 12 step 1 B, the rulebook's example (Cerberus, 10 Diplomacy): 7
/// permanent, 3 missing; the active commander pays first, choosing between
/// adventurers and table points.
#[test]
fn missions_the_shortfall_is_spent_by_the_active_commander_first() {
    let (mut g, a, b) = two_on("b01", 3, 2);
    g.ship_mut(a).experts = Experts([1, 2, 0]);
    g.pb.supply = Experts([6, 8, 8]);
    g.ship_mut(a).experience = [2, 0];
    g.ship_mut(b).experience = [3, 0];
    g.ship_mut(a).tracks.squads = 2;
    assert_eq!(g.ship(a).permanent(Domain::Diplomacy) + g.ship(b).permanent(Domain::Diplomacy), 7);
    land(&mut g, b, true, false);
    assert_eq!(g.pb.pending, Pending::Spend { seat: a, amount: 3 });
    assert_eq!(g.ids(), ["spend:1a2p", "spend:2a1p"]);
    g.pick("spend:2a1p");
    assert_eq!(g.ship(a).experts.get(ExpertKind::Adventurer), 0, "spent adventurers are discarded");
    assert_eq!((g.ship(a).experience[0], g.ship(b).experience[0]), (1, 3), "the other pays nothing");
    pass(&mut g);
    assert_eq!((g.ship(a).pc, g.ship(b).pc), (5, 4));
}

/// p. 12 step 1 C: if the experience cannot be met, no PC and nothing spent;
/// step 3: a mission with no PC and no PX costs each participant 2 PC.
#[test]
fn missions_unmet_experience_spends_nothing_and_a_fruitless_mission_costs_two_pc() {
    let (mut g, a, b) = two_on("b01", 3, 2);
    g.ship_mut(a).experience = [2, 0];
    g.ship_mut(a).tracks.squads = 3;
    g.ship_mut(a).pc = 5;
    g.ship_mut(b).pc = 1;
    land(&mut g, b, true, false);
    pass(&mut g);
    assert_eq!(g.ship(a).experience[0], 2);
    assert_eq!((g.ship(a).pc, g.ship(b).pc), (3, 0));
}

/// p. 12 step 1 a: a double competence: each participant names the domain
/// it invests, in turn order.
#[test]
fn missions_double_competence_each_participant_names_its_domain_in_turn_order() {
    let (mut g, a, b) = two_on("a08", 1, 2);
    g.ship_mut(a).profile = 0;
    g.ship_mut(b).profile = 3;
    land(&mut g, b, true, false);
    assert_eq!(g.pb.pending, Pending::Domain { seat: a });
    assert_eq!(g.ids(), ["domain:diplomacy", "domain:capture"]);
    g.pick("domain:diplomacy");
    assert_eq!(g.pb.pending, Pending::Domain { seat: b });
    g.pick("domain:capture");
    pass(&mut g);
    assert_eq!((g.ship(a).pc, g.ship(b).pc), (2, 2), "3 + 3 met the 4 required");
}

/// p. 12 step 2: in turn order, each participant may leave the star's
/// personnel for its PX, then part with one personnel for 1 PX; left
/// experts go back to the supply.
#[test]
fn missions_star_and_dismissal_in_turn_order_for_px() {
    let (mut g, a, b) = two_on("a03", 1, 2);
    g.ship_mut(a).experts = Experts([1, 0, 0]);
    g.pb.supply = Experts([7, 10, 8]);
    g.ship_mut(b).pc = 3;
    land(&mut g, b, true, false);
    assert_eq!(g.pb.pending, Pending::Star { seat: a });
    assert!(g.has("leave:2s0d0a0h") && g.has("leave:1s1d0a0h"));
    g.pick("leave:1s1d0a0h");
    assert_eq!((g.ship(a).px, g.ship(a).tracks.squads, g.pb.supply.get(ExpertKind::Diplomat)), (2, 1, 8));
    assert_eq!(g.pb.pending, Pending::Star { seat: b });
    g.pick("leave_nobody");
    assert_eq!(g.pb.pending, Pending::Dismiss { seat: a });
    g.pick("dismiss:squad");
    assert_eq!(g.ship(a).px, 3);
    g.pick("dismiss_nobody");
    assert_eq!(g.ship(b).pc, 3, "no Capture met: no PC, but a's PX spare everyone the 2 PC loss");
}

/// p. 12 steps 3-4: the card goes to its discoverer, the active-planet
/// token back to its place, an explored-planet token into the sector.
#[test]
fn missions_the_card_goes_to_the_discoverer_and_the_planet_is_explored() {
    let (mut g, a, b) = two_on("a02", 1, 2);
    g.pb.planets[0] = g.pb.planets[0].map(|p| ActivePlanet { discoverer: b, ..p });
    land(&mut g, b, true, false);
    pass(&mut g);
    assert_eq!(g.ship(b).trophies, [xs("a02")]);
    assert_eq!(g.pb.planets[0], None);
    assert_eq!(g.pb.explored[1], 1);
    assert_eq!(g.pb.pending, Pending::Turn { seat: a });
}

/// p. 14, 12 PX: adventurers are no longer discarded after use (read as
/// permanent experience in any domain, R5).
#[test]
fn echelle_xeno_twelve_px_keeps_the_adventurers() {
    let (mut g, a, b) = two_on("a16", 1, 2);
    g.ship_mut(a).profile = 0;
    g.ship_mut(a).experts = Experts([0, 4, 0]);
    g.pb.supply = Experts([8, 6, 8]);
    g.ship_mut(a).px = 12;
    land(&mut g, b, false, false);
    pass(&mut g);
    assert_eq!(g.ship(a).pc, 6, "3 + 4 adventurers met the 7 required");
    assert_eq!(g.ship(a).experts.get(ExpertKind::Adventurer), 4);
}

/// p. 12 "se partagent équitablement les PC ... arrondis en faveur de
/// l'U.C. dont c'est le tour" and R5 (revision 1): each share is the fair
/// share rounded, the active commander's up and the others' down (8 PC
/// over 3: 3, 2, 2); revision 0 gave the active commander the whole
/// remainder (4, 2, 2).
#[test]
fn missions_three_shares_each_rounded_the_active_commanders_up() {
    assert_eq!(three_shares(false), (3, 2, 2));
    assert_eq!(three_shares(true), (4, 2, 2));
}

/// PC of the active commander and two guests after an 8 PC mission.
fn three_shares(revision_0: bool) -> (u32, u32, u32) {
    let (mut g, a, b) = two_on("b07", 3, 3);
    if revision_0 {
        g.revision_0();
    }
    let c = g.next_seat(b);
    g.ship_mut(c).sector = 3;
    g.pick("land:alpha");
    g.pick(&format!("invite:{b}"));
    g.pick(&format!("invite:{c}"));
    g.pick("send_invitations");
    assert_eq!(g.pb.pending, Pending::Answer { seat: b }, "answers in turn order");
    g.pick("accept");
    assert_eq!(g.pb.pending, Pending::Answer { seat: c });
    g.pick("accept");
    g.pick("land_now");
    pass(&mut g);
    (g.ship(a).pc, g.ship(b).pc, g.ship(c).pc)
}

/// p. 12 step 2 "Est aussi indiqué le nombre minimum de membres de
/// l'équipage devant rester sur place" and R5 (revision 1): of the
/// personnel left for the star, at least the card's `crew` are squads of
/// legionnaires (Lumen Moths: 2 left, 1 of them a squad at least); revision
/// 0 took any mix.
#[test]
fn missions_the_star_keeps_a_minimum_crew_on_the_planet() {
    let (mut g, a, b) = two_on("a03", 1, 2);
    assert_eq!(Content::get().extrasolar[usize::from(xs("a03"))].star.map(|s| (s.leave, s.crew)), Some((2, 1)));
    g.ship_mut(a).experts = Experts([2, 0, 0]);
    g.pb.supply = Experts([6, 10, 8]);
    let mut old = g.clone();
    old.revision_0();
    for (g, two_diplomats) in [(&mut g, false), (&mut old, true)] {
        land(g, b, false, false);
        assert_eq!(g.pb.pending, Pending::Star { seat: a });
        assert!(g.has("leave:2s0d0a0h") && g.has("leave:1s1d0a0h"));
        assert_eq!(g.has("leave:0s2d0a0h"), two_diplomats);
    }
}

/// R10: when the Imperator deck is empty, its used cards are shuffled into
/// a new deck as the next card is turned up.
#[test]
fn utilisation_de_l_imperator_its_deck_is_rebuilt_from_used_cards() {
    let (mut g, _, b) = two_on("a14", 1, 2);
    let deck = std::mem::take(&mut g.hid.imperator_deck);
    g.pb.imperator.discard = deck;
    land(&mut g, b, true, true);
    pass(&mut g);
    assert!(g.pb.imperator.card.is_some());
    assert!(g.pb.imperator.discard.is_empty());
    assert_eq!(g.imperator_cards_everywhere(), 30);
}
