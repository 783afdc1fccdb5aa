//! The pending decision as a keyboard menu: the prompt, the
//! landing or mission under way, then this terminal's options (keyed,
//! wrapped whole, the cursor in view, a hint's options marked with rank
//! and reason); when another seat decides, who it is. At the end, the final result instead.

use super::model::LegioScreen;
use super::outcome;
use crate::hint;
use crate::ui::{menu, style};
use ratatui::style::{Color, Style};
use ratatui::text::Line;

/// The panel's lines for `rows` rows of `cols` columns: the menu of
/// [`menu::lines`], every option wrapped whole and the cursor in view.
pub fn lines(screen: &LegioScreen, rows: usize, cols: usize) -> Vec<Line<'static>> {
    if screen.table.outcome.is_some() {
        return outcome::lines(screen);
    }
    let d = &screen.table.decision;
    let mut out: Vec<Line<'static>> =
        menu::wrap(&d.prompt, cols.max(10), 2).into_iter().map(|l| Line::styled(l, style::title())).collect();
    if let Some(v) = screen.view() {
        out.extend(super::mission::lines(v, cols));
    }
    let mine = screen.my_options();
    if mine.is_empty() {
        out.push(Line::styled(format!("waiting for {}", screen.deciders_text()), Style::new().fg(Color::Yellow)));
        return out;
    }
    let options: Vec<(String, String)> = mine.iter().map(|o| (o.id.clone(), o.label.clone())).collect();
    let seq = screen.table.seq;
    let hint = screen.hint.as_ref().filter(|h| h.current(seq));
    let (labels, marked) = hint::mark_labels(hint, seq, &options);
    if let Some(h) = hint.filter(|_| rows > out.len() + 2) {
        out.push(Line::styled(h.banner(), Style::new().fg(Color::LightYellow)));
    }
    let room = rows.saturating_sub(out.len()).max(1);
    out.extend(menu::lines_marked(&labels, &marked, screen.selected, room, cols));
    out
}
