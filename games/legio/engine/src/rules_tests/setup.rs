//! Setup: rulebook "Mise en place" (p. 4, missing from the text: R1) and
//! "Prenez le commandement de votre Frombola" (p. 5).

use super::*;
use crate::content::BASE;

/// p. 5: each commander sets a command profile, embarks one expert of its
/// choice and keeps one of two Secret Objectives, the other shuffled back;
/// R1: in turn order from the first commander.
#[test]
fn prenez_le_commandement_profile_expert_and_one_objective_of_two() {
    let mut g = Game::new(GameConfig::new(3, 11)).expect("config");
    let first = g.pb.first;
    for seat in g.order_from(first) {
        assert_eq!(g.pb.pending, Pending::Profile { seat, promotion: false });
        assert_eq!(g.ids(), ["profile:0", "profile:1", "profile:2", "profile:3"]);
        g.pick("profile:2");
        assert_eq!(g.pb.pending, Pending::Expert { seat, promotion: false });
        assert_eq!(g.ids(), ["expert:diplomat", "expert:adventurer", "expert:hunter"]);
        g.pick("expert:hunter");
        assert_eq!(g.pb.pending, Pending::KeepObjective { seat });
        assert_eq!(g.hid.offers[usize::from(seat)].len(), 2);
        let keep = g.ids()[1].clone();
        g.pick(&keep);
        assert_eq!(g.hid.objectives[usize::from(seat)].len(), 1);
        assert!(g.hid.offers[usize::from(seat)].is_empty());
        let s = g.ship(seat);
        // Profile line 2: Diplomacy +1, Capture +2; the hunter adds 1.
        assert_eq!(
            (s.permanent(crate::content::Domain::Diplomacy), s.permanent(crate::content::Domain::Capture)),
            (1, 3)
        );
    }
    assert_eq!(g.hid.objective_pile.len(), 12 - 3, "the refused objectives went back");
    assert_eq!(g.pb.pending, Pending::Draw { seat: first });
    assert_eq!(g.pb.supply.get(ExpertKind::Hunter), 8 - 3);
}

/// p. 4-5 and R1: every ship a Frombola on its grey boxes at the Star Base
/// (S1); the leftmost A contact face up, the other A and the B contact face
/// down; the first Imperator card turned up; the X pile aside; the first
/// commander drawn by lot.
#[test]
fn mise_en_place_frombolas_at_the_star_base_contacts_and_imperator() {
    let c = Content::get();
    let g = ready(4, 2);
    for s in &g.pb.ships {
        assert_eq!((s.side, s.sector, s.pc, s.px, s.imperator_calls), (Side::Frombola, BASE, 0, 0, 0));
        assert_eq!(s.tracks, c.side(Side::Frombola).start);
        assert_eq!(s.experts.total(), 1);
    }
    assert!(g.pb.contact_a1.is_some());
    assert_eq!(g.pb.contact_down, [true, true]);
    assert_eq!((g.hid.piles[0].len(), g.hid.piles[1].len(), g.hid.pile_x.len()), (22, 20, 5));
    assert!(g.pb.imperator.card.is_some());
    assert_eq!(g.hid.imperator_deck.len(), 29);
    assert_eq!(g.pb.imperator.score, 0);
    let firsts: std::collections::BTreeSet<Seat> = (0..20).map(|s| ready(4, s).pb.first).collect();
    assert!(firsts.len() > 1, "the first commander is drawn by lot");
}
