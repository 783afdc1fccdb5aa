//! Hidden information in refusals and undo: a refusal never depends on the
//! decider's options when the sender is not the decider, never lists legal
//! ids, and a step that shows anyone a hidden card (the objectives offered
//! at setup, p. 5, and at 18 PC, p. 15) cannot be undone.

use super::*;

/// Refusals (no rule of the text; the hosting contract): a non-decider gets
/// the same text whatever it sends, a legal id of the decider, one of the
/// decider's hand cards or garbage; the decider's own refusals name none of
/// its option ids (they would name its hand, p. 7, or its objectives on
/// offer, p. 15).
#[test]
fn refusals_name_none_of_the_deciders_secrets() {
    let mut g = ready(3, 4);
    let s = g.pb.active;
    g.turn_of(s);
    g.give(s, &["e29", "e38", "e40"]);
    let other = g.next_seat(s);
    let ids = g.ids();
    assert!(ids.iter().any(|i| i == "explore:e29"), "{ids:?}");
    let refuse = |g: &mut Game, seat: Seat, id: &str| g.apply(seat, id).expect_err("refused").to_string();
    let garbage = refuse(&mut g, other, "zzz");
    for id in ["explore:e29", "discard:e38", "explore:e40", "recruit:squad", "end_turn", "explore:e01", ""] {
        assert_eq!(refuse(&mut g, other, id), garbage, "the text does not depend on '{id}'");
    }
    let own = refuse(&mut g, s, "zzz");
    for id in &ids {
        assert!(!garbage.contains(id.as_str()) && !own.contains(id.as_str()), "'{id}' named in '{own}'");
    }

    // The same with an objective offer pending.
    let mut g = Game::new(GameConfig::new(3, 4)).expect("config");
    while !matches!(g.pb.pending, Pending::KeepObjective { .. }) {
        let id = g.ids()[0].clone();
        g.pick(&id);
    }
    let d = g.pb.pending.seat().expect("decider");
    let offer = g.ids();
    let other = g.next_seat(d);
    let garbage = refuse(&mut g, other, "objective:zz");
    for id in &offer {
        assert_eq!(refuse(&mut g, other, id), garbage);
    }
    let own = refuse(&mut g, d, "objective:zz");
    assert!(offer.iter().all(|id| !own.contains(id.as_str()) && !garbage.contains(id.as_str())), "{own}");
}

/// p. 5 (Prenez le commandement): the two objectives drawn after the expert
/// is embarked are shown to their commander: that step is not undoable,
/// while the profile step before it is.
#[test]
fn prenez_le_commandement_the_objective_offer_cannot_be_undone() {
    let mut g = Game::new(GameConfig::new(2, 9)).expect("config");
    let s = g.pb.pending.seat().expect("decider");
    let hidden = g.hidden_hash();
    let (_, undo) = g.apply_checked(s, "profile:1").expect("legal");
    assert!(undo, "a profile reveals nothing");
    assert_eq!(g.hidden_hash(), hidden);
    let (ev, undo) = g.apply_checked(s, "expert:diplomat").expect("legal");
    assert_eq!(g.pb.pending, Pending::KeepObjective { seat: s });
    assert!(ev.contains(&Event::ObjectivesOffered { seat: s, cards: 2 }));
    assert!(!undo && !undoable(&ev), "the offer showed two objectives");
    assert_ne!(g.hidden_hash(), hidden, "the offer moved the hidden half");
}

/// p. 15 (Objectifs secrets): at 18 PC two objectives are drawn for the
/// commander; the step that scores the 18th PC is not undoable.
#[test]
fn objectifs_secrets_the_draw_at_18_pc_cannot_be_undone() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.ship_mut(s).second_objective = false;
    g.ship_mut(s).pc = 17;
    g.turn_of(s);
    g.ship_mut(s).px = 3;
    g.give(s, &["e40"]);
    let hidden = g.hidden_hash();
    let (ev, undo) = g.apply_checked(s, "explore:e40").expect("legal");
    assert_eq!(g.pb.pending, Pending::KeepObjective { seat: s });
    assert!(ev.contains(&Event::ObjectivesOffered { seat: s, cards: 2 }));
    assert!(!undo && !undoable(&ev));
    assert_ne!(g.hidden_hash(), hidden);
}

/// Undo (hosting contract): paying one's own cards reveals nothing, so the
/// step stays undoable though the hidden half moved (the hand shrank);
/// what the payer cannot see is unchanged.
#[test]
fn paying_ones_own_cards_stays_undoable() {
    let mut g = ready(2, 3);
    let s = g.pb.active;
    g.turn_of(s);
    g.give(s, &["e01", "e02", "e03", "e04"]);
    let (hidden, unseen) = (g.hidden_hash(), g.unseen_hash(s));
    let (ev, undo) = g.apply_checked(s, "recruit:squad").expect("legal");
    assert!(undo && undoable(&ev));
    let (ev, undo) = g.apply_checked(s, "discard:e02").expect("legal");
    assert!(undo && undoable(&ev));
    assert_ne!(g.hidden_hash(), hidden);
    assert_eq!(g.unseen_hash(s), unseen);
    assert_ne!(g.unseen_hash(g.next_seat(s)), hidden, "the other seat does not see the discard");
}
