//! Plain text of a VII Legio state: the round, the sectors with their
//! ships and active planets, every commander's public board, the
//! viewer's own hand and objectives, then the decision or the result.
//! Seats are numbered as scripts use them (from 0; the screen and the
//! event lines say "Commander 1" for seat 0).
//! What `xodus view --text` prints for a VII Legio game.

use super::ui::names;
use crate::table::Table;
use legio_engine::{ExpertKind, View};
use std::fmt::Write as _;

/// A multi-line report of a VII Legio view.
pub fn report(game_id: &str, t: &Table, v: &View) -> String {
    let pb = &v.public;
    let mut s = String::new();
    let viewer = t.viewer_seat.map(|v| format!(" as seat {v}")).unwrap_or_default();
    let _ = writeln!(s, "game {game_id} (legio) round {} seq {}{viewer}", pb.round, t.seq);
    let _ = writeln!(
        s,
        "imperator score {} card {} deck {}",
        pb.imperator.score,
        pb.imperator.card.map_or("-".to_string(), names::imperator),
        v.counts.imperator_deck
    );
    for sector in 0..6u8 {
        let ships: Vec<String> =
            pb.ships.iter().filter(|sh| sh.sector == sector).map(|sh| sh.seat.to_string()).collect();
        let planets: Vec<String> = pb
            .planets
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.filter(|p| p.sector == sector).map(|p| (i, p)))
            .map(|(i, p)| format!("{} {} by seat {}", names::planet(i as u8), names::extrasolar(p.card), p.discoverer))
            .collect();
        let explored = pb.explored.get(usize::from(sector)).map(|n| format!(" explored {n}")).unwrap_or_default();
        let _ = writeln!(
            s,
            "sector {} ships [{}]{explored} planets [{}]",
            names::sector(sector),
            ships.join(","),
            planets.join("; ")
        );
    }
    for sh in &pb.ships {
        let i = usize::from(sh.seat);
        let experts: String = ExpertKind::ALL
            .iter()
            .map(|k| format!("{}{}", sh.experts.get(*k), names::expert_letter(*k)))
            .collect::<Vec<_>>()
            .join(" ");
        let _ = writeln!(
            s,
            "seat {} {} at {} pc {} px {} prop {} las {} dec {} det {} squads {} experts {experts} exp {}/{} tech {} calls-left {} hand {} objectives {} revealed [{}]",
            sh.seat,
            names::side(sh.side),
            names::sector(sh.sector),
            sh.pc,
            sh.px,
            sh.tracks.propulsors,
            sh.tracks.lasers,
            sh.tracks.decoder,
            sh.tracks.detectors,
            sh.tracks.squads,
            sh.experience[0],
            sh.experience[1],
            sh.tech.map_or("-", names::tech),
            v.config.imperator_calls().saturating_sub(sh.imperator_calls),
            v.counts.hands.get(i).copied().unwrap_or(0),
            v.counts.objectives.get(i).copied().unwrap_or(0),
            sh.revealed.iter().map(|o| names::objective(*o)).collect::<Vec<_>>().join("; ")
        );
    }
    if let Some(mine) = &v.mine {
        let hand: Vec<&str> = mine.hand.iter().map(|c| names::card(*c)).collect();
        let _ = writeln!(s, "hand [{}]", hand.join("; "));
        for o in &mine.objectives {
            let _ = writeln!(s, "objective {}", names::objective_long(*o));
        }
        for o in &mine.offer {
            let _ = writeln!(s, "objective on offer {}", names::objective_long(*o));
        }
    }
    crate::plain::any::decision(&mut s, t);
    s
}
