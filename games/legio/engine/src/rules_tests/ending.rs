//! The end: rulebook "Fin de partie" (p. 16), "L'échelle XENO" (p. 14),
//! "Objectifs secrets" (p. 15).

use super::*;

/// Ends the active commander's turn with no cards.
fn pass_turn(g: &mut Game) {
    if matches!(g.pb.pending, Pending::Draw { .. }) {
        g.pick("draw:0");
    }
    g.pick("end_turn");
}

/// p. 16 and p. 14: 15 PX triggers the end; the round is finished so that
/// every commander has played as many turns.
#[test]
fn fin_de_partie_fifteen_px_then_the_round_is_finished() {
    let mut g = ready(3, 1);
    let first = g.pb.first;
    g.turn_of(first);
    g.ship_mut(first).px = 14;
    g.give(first, &["e38"]);
    g.ship_mut(first).px = 14;
    g.ship_mut(first).tech = Some(Tech::Holodeck);
    let ev = g.pick("explore:e38");
    assert!(ev.contains(&Event::EndTriggered { cause: "fifteen_px".into() }));
    pass_turn(&mut g);
    assert!(g.outcome().is_none(), "the others still play");
    pass_turn(&mut g);
    assert!(g.outcome().is_none());
    pass_turn(&mut g);
    let o = g.outcome().expect("over after the round");
    assert_eq!((o.cause.as_str(), o.round), ("fifteen_px", 1));
    assert_eq!(g.decision().options.len(), 0);
    assert_eq!(g.apply(first, "end_turn"), Err(RuleError::GameOver));
}

/// p. 16 and p. 14: with 13 or 14 PX a commander may declare the end on its
/// turn.
#[test]
fn fin_de_partie_thirteen_or_fourteen_px_may_declare_the_end() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.ship_mut(s).px = 12;
    assert!(!g.has("declare_end"));
    g.ship_mut(s).px = 13;
    g.pick("declare_end");
    assert_eq!(g.pb.end.as_deref(), Some("declared"));
    assert!(!g.has("declare_end"));
}

/// p. 16: the end comes when the Imperator's pawn reaches 25.
#[test]
fn fin_de_partie_the_imperator_reaches_25() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.put_planet(0, 0, "a01", s);
    g.turn_of(s);
    g.pb.imperator.score = 24;
    g.pick("land:alpha");
    if g.has("send_invitations") {
        g.pick("send_invitations");
    }
    let ev = g.pick("land_with_imperator");
    assert!(ev.contains(&Event::EndTriggered { cause: "imperator_25".into() }));
}

/// p. 16: the end comes when no planet is left to discover (R11: no sector
/// below its limit with a contact card left for its zone).
#[test]
fn fin_de_partie_no_planet_left_to_discover() {
    let c = Content::get();
    let mut g = ready(2, 1);
    for s in 0..5u8 {
        g.pb.explored[usize::from(s)] = c.nebula.limit(s, 2);
    }
    g.pb.explored[4] -= 1;
    let mut ev = Vec::new();
    g.check_planets_exhausted(&mut ev);
    assert!(g.pb.end.is_none(), "S5 has room");
    g.hid.piles[1].clear();
    g.hid.contacts[1] = None;
    g.pb.contact_down[1] = false;
    g.check_planets_exhausted(&mut ev);
    assert_eq!(g.pb.end.as_deref(), Some("no_planet_left"), "room but no B card left");
}

/// p. 16: among commanders with 10 PX or more, most PC wins; then most PX;
/// then the victory is shared; below 10 PX, no victory (R14).
#[test]
fn fin_de_partie_ten_px_gate_then_pc_then_px_then_shared() {
    let mut g = ready(3, 1);
    let set = |g: &mut Game, s: Seat, pc: u32, px: u8| {
        g.ship_mut(s).pc = pc;
        g.ship_mut(s).px = px;
    };
    set(&mut g, 0, 30, 9);
    set(&mut g, 1, 20, 10);
    set(&mut g, 2, 20, 12);
    let mut h = g.clone();
    h.finish("declared", &mut Vec::new());
    let o = h.outcome().expect("over");
    assert_eq!((o.winners.clone(), o.ranking.clone()), (vec![2], vec![2, 1, 0]));
    assert_eq!(o.scores, [30, 20, 20]);
    set(&mut g, 1, 20, 12);
    let mut h = g.clone();
    h.finish("declared", &mut Vec::new());
    assert_eq!(h.outcome().expect("over").winners, [1, 2], "shared");
    set(&mut g, 1, 20, 9);
    set(&mut g, 2, 20, 9);
    g.finish("declared", &mut Vec::new());
    assert!(g.outcome().expect("over").winners.is_empty());
}

/// p. 15: an objective is revealed and scored as soon as it is achieved.
#[test]
fn objectifs_secrets_revealed_and_scored_when_achieved() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.turn_of(s);
    g.hid.objective_pile.retain(|&o| o != obj("o04"));
    g.hid.objectives[usize::from(s)] = vec![obj("o04")];
    g.ship_mut(s).tracks.lasers = 2;
    g.give(s, &["e01", "e02"]);
    let ev = g.pick("equip:laser");
    assert!(ev.contains(&Event::ObjectiveRevealed { seat: s, objective: obj("o04"), pc: 2 }));
    assert_eq!(g.ship(s).pc, 2);
    assert_eq!(g.ship(s).revealed, [obj("o04")]);
}

/// p. 16 and p. 15: end objectives (grey symbol) are revealed and scored at
/// the end if met; an unmet objective is revealed for nothing.
#[test]
fn objectifs_secrets_end_objectives_scored_at_the_end() {
    let mut g = ready(2, 1);
    g.hid.objective_pile.retain(|&o| o != obj("o11") && o != obj("o12"));
    g.hid.objectives[0] = vec![obj("o11")];
    g.hid.objectives[1] = vec![obj("o12")];
    g.ship_mut(0).side = Side::Spatha;
    g.finish("declared", &mut Vec::new());
    assert_eq!((g.ship(0).pc, g.ship(1).pc), (3, 0));
    assert_eq!(g.objectives_everywhere(), 12);
}

/// p. 15: at 18 PC a commander draws two objectives and keeps one, even
/// out of its turn.
#[test]
fn objectifs_secrets_a_second_objective_at_18_pc() {
    let mut g = ready(2, 1);
    let s = g.pb.active;
    g.ship_mut(s).second_objective = false;
    g.ship_mut(s).pc = 17;
    g.turn_of(s);
    g.ship_mut(s).px = 3;
    g.give(s, &["e40"]);
    g.pick("explore:e40");
    assert_eq!(g.pb.pending, Pending::KeepObjective { seat: s });
    let id = g.ids()[0].clone();
    g.pick(&id);
    assert_eq!(g.hid.objectives[usize::from(s)].len(), 1);
    g.ship_mut(s).pc = 30;
    let mut ev = Vec::new();
    g.add_pc(s, 1, "test", &mut ev);
    assert!(!g.pb.tasks.contains(&crate::decision::Task::Objective(s)), "only once");
}

/// Plays `cfg` passively (draw nothing, end the turn) to its end.
fn play_idle(cfg: GameConfig) -> Game {
    let mut g = Game::new(cfg).expect("config");
    while g.outcome().is_none() {
        let d = g.decision();
        let id = if d.options.iter().any(|o| o.id == "draw:0") {
            "draw:0".to_string()
        } else if d.options.iter().any(|o| o.id == "end_turn") {
            "end_turn".to_string()
        } else {
            d.options[0].id.clone()
        };
        g.pick(&id);
    }
    g
}

/// R20 (not in the text): a hosted game ends after its round limit, at the
/// end of a round, cause `round_limit`; from revision 1 it is truncated:
/// no ranking and no winner, the scores kept.
#[test]
fn fin_de_partie_a_hosted_round_limit_ends_the_game() {
    let g = play_idle(GameConfig { round_limit: 2, ..GameConfig::new(2, 3) });
    let o = g.outcome().expect("over");
    assert_eq!((o.cause.as_str(), o.round), ("round_limit", 2));
    assert!(o.truncated);
    assert!(o.ranking.is_empty() && o.winners.is_empty());
    assert_eq!((o.scores.len(), o.px.len()), (2, 2));
}

/// R20, revision 0: a game cut by the limit was ranked like a finished one.
#[test]
fn fin_de_partie_revision_0_ranks_a_game_cut_by_the_limit() {
    let g = play_idle(GameConfig { round_limit: 2, rules_revision: None, ..GameConfig::new(2, 3) });
    let o = g.outcome().expect("over");
    assert_eq!((o.cause.as_str(), o.truncated, o.ranking.len()), ("round_limit", false, 2));
}
