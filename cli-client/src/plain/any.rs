//! Plain text of any game's state from the platform part alone: the
//! game, its sequence number, the result or the pending decision with its
//! options (ids, seats, labels). What `xodus view --text` prints for a
//! game the client has no reader for.

use crate::table::Table;
use std::fmt::Write as _;

/// A multi-line report of a state.
pub fn report(game_id: &str, t: &Table) -> String {
    let mut s = String::new();
    let viewer = t.viewer_seat.map(|v| format!(" as seat {v}")).unwrap_or_default();
    let _ = writeln!(s, "game {game_id} ({}) seq {}{viewer}", t.game_type, t.seq);
    decision(&mut s, t);
    s
}

/// The result line, or the decision and its options.
pub fn decision(s: &mut String, t: &Table) {
    if let Some(o) = &t.outcome {
        let _ = writeln!(s, "result {}", o.words());
        return;
    }
    let d = &t.decision;
    let _ = writeln!(s, "decision {} by {:?}: {}", d.kind, d.deciders, d.prompt);
    for o in &d.options {
        let _ = writeln!(s, "  option {} seats {:?}: {}", o.id, o.seats, o.label);
    }
    let deciding = t.viewer_seat.is_some_and(|v| d.deciders.contains(&v));
    if d.options.is_empty() && !deciding {
        let _ = writeln!(s, "  (the options go to the deciding seat only: view as it with --seat and --token)");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::pb;

    #[test]
    fn a_game_without_a_reader_reports_its_decision_and_its_result() {
        let mut state = pb::GameState {
            seq: 3,
            game_type: "high_card".into(),
            decision: Some(pb::Decision {
                kind: "bet".into(),
                deciders: vec![0],
                prompt: "Bet or fold".into(),
                options: vec![pb::ChoiceOption {
                    id: "fold".into(),
                    label: "Fold".into(),
                    seats: vec![0],
                    ..Default::default()
                }],
            }),
            ..Default::default()
        };
        let text = report("g-5", &crate::games::read(&state));
        assert!(text.starts_with("game g-5 (high_card) seq 3"), "{text}");
        assert!(text.contains("decision bet by [0]: Bet or fold"), "{text}");
        assert!(text.contains("  option fold seats [0]: Fold"), "{text}");
        state.outcome = Some(pb::Outcome {
            cause: "high_card".into(),
            scores: vec![1, 0],
            ranking: vec![0, 1],
            kind: pb::OutcomeKind::Ranked as i32,
            ..Default::default()
        });
        let text = report("g-5", &crate::games::read(&state));
        assert!(text.contains("result OVER (high card): no winner; ranking seat 0 (1), seat 1 (0)"), "{text}");
    }
}
