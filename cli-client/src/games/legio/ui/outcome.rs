//! The end of the game: why and when it ended, then each commander's
//! place, PC and PX with the winners marked; or, for a game cut by the
//! round limit, "truncated" and the scores without a ranking. Read from
//! VII Legio's own outcome when the view has it, else from the platform's.

use super::model::LegioScreen;
use super::names;
use crate::ui::style;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

/// The result's lines.
pub fn lines(screen: &LegioScreen) -> Vec<Line<'static>> {
    let bold = |c: Color| Style::new().fg(c).add_modifier(Modifier::BOLD);
    if let Some(o) = screen.view().and_then(|v| v.public.outcome.as_ref()) {
        let mut out = vec![Line::styled(
            format!("GAME OVER: {} in round {}", names::cause(&o.cause), o.round),
            bold(Color::LightGreen),
        )];
        if o.truncated || o.ranking.is_empty() {
            out.push(Line::styled("truncated: no ranking, no winner", bold(Color::Yellow)));
            for (seat, pc) in o.scores.iter().enumerate() {
                let px = o.px.get(seat).copied().unwrap_or(0);
                out.push(Line::raw(format!("  {} {pc} PC {px} PX", screen.seat_name(seat as u8))));
            }
        } else {
            if o.winners.is_empty() {
                out.push(Line::styled("no winner: nobody reached 10 PX", bold(Color::Yellow)));
            }
            for (place, seat) in o.ranking.iter().enumerate() {
                let pc = o.scores.get(usize::from(*seat)).copied().unwrap_or(0);
                let px = o.px.get(usize::from(*seat)).copied().unwrap_or(0);
                let won = if o.winners.contains(seat) { "  WINNER" } else { "" };
                let line = format!("{}. {} {pc} PC {px} PX{won}", place + 1, screen.seat_name(*seat));
                out.push(if won.is_empty() { Line::raw(line) } else { Line::styled(line, bold(Color::LightGreen)) });
            }
        }
        out.push(Line::styled("press q to leave", style::dim()));
        return out;
    }
    match &screen.table.outcome {
        Some(o) => vec![
            Line::styled("GAME OVER", bold(Color::LightGreen)),
            Line::raw(o.words()),
            Line::styled("press q to leave", style::dim()),
        ],
        None => Vec::new(),
    }
}
