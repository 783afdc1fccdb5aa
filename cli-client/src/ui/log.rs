//! The scrolling event log: the newest lines at the bottom, scrolled back
//! with PgUp/PgDn.

use super::model::Screen;
use super::style;
use ratatui::text::Line;

/// The panel's lines for `rows` rows.
pub fn lines(screen: &Screen, rows: usize) -> Vec<Line<'static>> {
    let end = screen.log.len().saturating_sub(screen.log_scroll);
    let start = end.saturating_sub(rows);
    let mut out: Vec<Line<'static>> = screen.log[start..end].iter().map(|l| Line::raw(l.clone())).collect();
    if let Some(msg) = &screen.status {
        if out.len() >= rows && !out.is_empty() {
            out.remove(0);
        }
        out.push(Line::styled(msg.clone(), ratatui::style::Style::new().fg(ratatui::style::Color::LightRed)));
    }
    if out.is_empty() {
        out.push(Line::styled("no events yet", style::dim()));
    }
    out
}
