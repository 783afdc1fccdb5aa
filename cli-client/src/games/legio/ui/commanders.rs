//! Every commander's public board: side, sector, PC and PX, tracks
//! (propulsors, lasers, decoder, detectors, squads), experts, experience,
//! technology, Imperator calls left (of 3, or 5 with two commanders), hand
//! size, objectives held and revealed, trophies. Lines are wrapped at
//! words, never cut; when the panel is short, the revealed objectives and
//! trophies share a line with the rest.

use super::model::LegioScreen;
use super::names;
use crate::ui::menu::wrap;
use crate::ui::style;
use legio_engine::{ExpertKind, Ship, View};
use ratatui::text::{Line, Span};

/// The panel's lines for `rows` rows of `cols` columns.
pub fn lines(screen: &LegioScreen, v: &View, rows: usize, cols: usize) -> Vec<Line<'static>> {
    let ships = v.public.ships.len().max(1);
    let roomy = rows >= ships * 4;
    v.public.ships.iter().flat_map(|sh| board(screen, v, sh, cols, roomy)).collect()
}

/// The viewer's own board (small screens), or nothing for a spectator.
pub fn own(screen: &LegioScreen, v: &View, cols: usize) -> Vec<Line<'static>> {
    let Some(me) = screen.my_seat else { return Vec::new() };
    v.public.ships.iter().filter(|s| s.seat == me).flat_map(|sh| board(screen, v, sh, cols, false)).collect()
}

/// One commander's lines: its name and scores, then its tracks, then the
/// rest (on a line of its own when `roomy`).
fn board(screen: &LegioScreen, v: &View, sh: &Ship, cols: usize, roomy: bool) -> Vec<Line<'static>> {
    let pb = &v.public;
    let i = usize::from(sh.seat);
    let hand = v.counts.hands.get(i).copied().unwrap_or(0);
    let objectives = v.counts.objectives.get(i).copied().unwrap_or(0);
    let active = if pb.active == sh.seat && pb.outcome.is_none() { "> " } else { "  " };
    let mut out = vec![Line::from(vec![
        Span::raw(active),
        Span::styled(screen.seat_name(sh.seat), style::seat_style(sh.seat)),
        Span::raw(format!(" {} {} PC {} PX {}", names::side(sh.side), names::sector(sh.sector), sh.pc, sh.px)),
    ])];
    let experts: String =
        ExpertKind::ALL.iter().map(|k| format!("{}{}", names::expert_letter(*k), sh.experts.get(*k))).collect();
    let t = &sh.tracks;
    let calls = v.config.imperator_calls().saturating_sub(sh.imperator_calls);
    let tracks = format!(
        "prop{} las{} dec{} det{} sq{} exp {experts} xp dip{} cap{} hand {hand} obj {objectives} calls {calls} tech {}",
        t.propulsors,
        t.lasers,
        t.decoder,
        t.detectors,
        t.squads,
        sh.experience[0],
        sh.experience[1],
        sh.tech.map_or("-", names::tech),
    );
    let revealed: Vec<&str> = sh.revealed.iter().map(|o| names::objective(*o)).collect();
    let trophies: Vec<&str> = sh.trophies.iter().chain(&sh.x_cards).map(|c| names::extrasolar(*c)).collect();
    let mut rest = Vec::new();
    if !revealed.is_empty() {
        rest.push(format!("revealed: {}", revealed.join(", ")));
    }
    if !trophies.is_empty() {
        rest.push(format!("trophies: {}", trophies.join(", ")));
    }
    if roomy || rest.is_empty() {
        out.extend(wrap(&tracks, cols.saturating_sub(2), 2).into_iter().map(|l| Line::raw(format!("  {l}"))));
        let text = if rest.is_empty() { "revealed: -  trophies: -".to_string() } else { rest.join("  ") };
        if roomy {
            out.extend(
                wrap(&text, cols.saturating_sub(2), 2)
                    .into_iter()
                    .map(|l| Line::styled(format!("  {l}"), style::dim())),
            );
        }
    } else {
        let text = format!("{tracks}  {}", rest.join("  "));
        out.extend(wrap(&text, cols.saturating_sub(2), 2).into_iter().map(|l| Line::raw(format!("  {l}"))));
    }
    out
}
