//! The scrolling event log (each event's `Event.summary`, and the
//! client's own notes): the newest lines at the bottom, PgUp/PgDn.

use super::model::LegioScreen;
use crate::ui::style;
use ratatui::style::{Color, Style};
use ratatui::text::Line;

/// The panel's lines for `rows` rows.
pub fn lines(screen: &LegioScreen, rows: usize) -> Vec<Line<'static>> {
    let end = screen.log.len().saturating_sub(screen.log_scroll);
    let start = end.saturating_sub(rows);
    let mut out: Vec<Line<'static>> = screen.log[start..end].iter().map(|l| Line::raw(l.clone())).collect();
    if let Some(msg) = &screen.status {
        if out.len() >= rows && !out.is_empty() {
            out.remove(0);
        }
        out.push(Line::styled(msg.clone(), Style::new().fg(Color::LightRed)));
    }
    if out.is_empty() {
        out.push(Line::styled("no events yet", style::dim()));
    }
    out
}
