//! Every commander's public board: side, sector, PC and PX, tracks
//! (propulsors, lasers, decoder, detectors, squads), experts, experience,
//! technology, Imperator calls left (of 3, or 5 with two commanders), hand size, objectives held and those
//! revealed, trophies. Three lines each when there is room, two otherwise.

use super::model::LegioScreen;
use super::names;
use crate::ui::style;
use legio_engine::{ExpertKind, View};
use ratatui::text::{Line, Span};

/// The panel's lines for `rows` rows: two to four lines per commander.
pub fn lines(screen: &LegioScreen, v: &View, rows: usize) -> Vec<Line<'static>> {
    let pb = &v.public;
    let per = (rows / pb.ships.len().max(1)).clamp(2, 4);
    let mut out = Vec::new();
    for sh in &pb.ships {
        let i = usize::from(sh.seat);
        let hand = v.counts.hands.get(i).copied().unwrap_or(0);
        let objectives = v.counts.objectives.get(i).copied().unwrap_or(0);
        let active = if pb.active == sh.seat && pb.outcome.is_none() { "> " } else { "  " };
        out.push(Line::from(vec![
            Span::raw(active),
            Span::styled(screen.seat_name(sh.seat), style::seat_style(sh.seat)),
            Span::raw(format!(" {} {} PC {} PX {}", names::side(sh.side), names::sector(sh.sector), sh.pc, sh.px)),
        ]));
        let experts: String =
            ExpertKind::ALL.iter().map(|k| format!("{}{}", names::expert_letter(*k), sh.experts.get(*k))).collect();
        let t = &sh.tracks;
        let tracks = format!(
            "  prop{} las{} dec{} det{} sq{} exp {experts} xp {}/{}",
            t.propulsors, t.lasers, t.decoder, t.detectors, t.squads, sh.experience[0], sh.experience[1],
        );
        if per == 2 {
            out.push(Line::raw(format!("{tracks} hand {hand}")));
            continue;
        }
        out.push(Line::raw(tracks));
        let calls = v.config.imperator_calls().saturating_sub(sh.imperator_calls);
        out.push(Line::raw(format!(
            "  hand {hand} obj {objectives} calls left {calls} tech {}",
            sh.tech.map_or("-", names::tech)
        )));
        if per == 4 {
            let revealed: Vec<&str> = sh.revealed.iter().map(|o| names::objective(*o)).collect();
            let trophies: Vec<&str> = sh.trophies.iter().chain(&sh.x_cards).map(|c| names::extrasolar(*c)).collect();
            let text = format!(
                "  revealed: {}  trophies: {}",
                if revealed.is_empty() { "-".to_string() } else { revealed.join(", ") },
                if trophies.is_empty() { "-".to_string() } else { trophies.join(", ") }
            );
            out.push(Line::styled(text, style::dim()));
        }
    }
    out
}
