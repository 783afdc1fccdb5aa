//! The pending decision as a keyboard menu: the prompt, then this
//! terminal's options (numbered, the cursor highlighted, the highlighted
//! one wrapped whole); when another seat decides, who it is. At the end,
//! the final result instead.

use super::model::LegioScreen;
use super::outcome;
use crate::ui::style;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

/// The panel's lines for `rows` rows of `cols` columns, scrolled so that
/// the cursor stays visible.
pub fn lines(screen: &LegioScreen, rows: usize, cols: usize) -> Vec<Line<'static>> {
    if screen.table.outcome.is_some() {
        return outcome::lines(screen);
    }
    let d = &screen.table.decision;
    let mut out = vec![Line::styled(d.prompt.clone(), style::title())];
    let mine = screen.my_options();
    if mine.is_empty() {
        out.push(Line::styled(format!("waiting for {}", screen.deciders_text()), Style::new().fg(Color::Yellow)));
        return out;
    }
    let text = |i: usize, label: &str| {
        let key = if i < 9 { format!("{}", i + 1) } else { " ".into() };
        format!("{key} {label}")
    };
    let wrapped = mine
        .get(screen.selected)
        .map(|o| wrap(&format!("> {}", text(screen.selected, &o.label)), cols.max(10)))
        .unwrap_or_default();
    let room = rows.saturating_sub(out.len()).max(1);
    let others = room.saturating_sub(wrapped.len().saturating_sub(1)).max(1);
    let first = screen.selected.saturating_sub(others - 1);
    let highlight = Style::new().fg(Color::Black).bg(Color::LightGreen);
    for (i, o) in mine.iter().enumerate().skip(first).take(others) {
        if i == screen.selected {
            out.extend(wrapped.iter().map(|part| Line::from(vec![Span::styled(part.clone(), highlight)])));
        } else {
            out.push(Line::raw(format!("  {}", text(i, &o.label))));
        }
    }
    out
}

/// `text` cut into rows of at most `cols` characters at spaces; rows
/// after the first are indented by four.
pub(super) fn wrap(text: &str, cols: usize) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for word in text.split(' ') {
        let indent = if rows.is_empty() { 0 } else { 4 };
        if !row.is_empty() && indent + row.chars().count() + 1 + word.chars().count() > cols {
            rows.push(std::mem::take(&mut row));
        }
        if !row.is_empty() {
            row.push(' ');
        }
        row.push_str(word);
    }
    rows.push(row);
    rows.into_iter().enumerate().map(|(i, r)| if i == 0 { r } else { format!("    {r}") }).collect()
}
