//! The pending decision as a keyboard menu: the prompt, who else may take
//! it, then this terminal's legal options (numbered, the cursor
//! highlighted); when someone else decides, who it is and what they may
//! choose.

use super::model::Screen;
use super::style;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// The panel's lines for `rows` rows of `cols` columns, scrolled so the
/// cursor stays visible; the highlighted option is shown whole, wrapped
/// over as many rows as it needs (others are cut at the edge).
pub fn lines(screen: &Screen, rows: usize, cols: usize) -> Vec<Line<'static>> {
    let v = &screen.view;
    let mut out = Vec::new();
    if let Some(o) = &v.public.outcome {
        let (text, color) =
            if o.won { ("VICTORY: the Rift is sealed", Color::LightGreen) } else { ("DEFEAT", Color::LightRed) };
        out.push(Line::styled(text, Style::new().fg(color).add_modifier(Modifier::BOLD)));
        out.push(Line::raw(format!("{} in round {}", o.cause.replace('_', " "), o.round)));
        out.push(Line::styled("press q to leave", style::dim()));
        return out;
    }
    out.push(Line::styled(v.decision.prompt.clone(), style::title()));
    let mine = screen.my_options();
    if mine.is_empty() {
        out.push(Line::styled(format!("waiting for {}", screen.deciders_text()), Style::new().fg(Color::Yellow)));
        for o in v.decision.options.iter().take(rows.saturating_sub(2)) {
            out.push(Line::styled(format!("  {}", o.label), style::dim()));
        }
        return out;
    }
    if let Some(hint) = screen.shared_hint() {
        out.push(Line::styled(hint, style::dim()));
    }
    let selected_text = |i: usize, seat: u8, label: &str| {
        let key = if i < 9 { format!("{}", i + 1) } else { " ".into() };
        let who = if screen.my_seats.len() > 1 { format!(" [c{seat}]") } else { String::new() };
        format!("{key} {label}{who}")
    };
    let wrapped: Vec<String> = mine
        .get(screen.selected)
        .map(|(seat, o)| wrap(&format!("> {}", selected_text(screen.selected, *seat, &o.label)), cols.max(10)))
        .unwrap_or_default();
    let room = rows.saturating_sub(out.len()).max(1);
    // The highlighted option's extra rows come out of the room for others.
    let others = room.saturating_sub(wrapped.len().saturating_sub(1)).max(1);
    let first = screen.selected.saturating_sub(others - 1);
    let highlight = Style::new().fg(Color::Black).bg(Color::LightGreen);
    for (i, (seat, o)) in mine.iter().enumerate().skip(first).take(others) {
        if i == screen.selected {
            out.extend(wrapped.iter().map(|part| Line::from(vec![Span::styled(part.clone(), highlight)])));
        } else {
            out.push(Line::raw(format!("  {}", selected_text(i, *seat, &o.label))));
        }
    }
    out
}

/// `text` cut into rows of at most `cols` characters, at spaces where it
/// can; rows after the first are indented by four.
fn wrap(text: &str, cols: usize) -> Vec<String> {
    let mut rows = Vec::new();
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

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn a_long_option_wraps_at_spaces_and_keeps_every_word() {
        let text = "> 7 The group reveals 2 systems anywhere on the board, each next to a revealed one (1 scrap)";
        let rows = wrap(text, 40);
        assert!(rows.len() > 1 && rows.iter().all(|r| r.chars().count() <= 40), "{rows:?}");
        let words: Vec<&str> = rows.iter().flat_map(|r| r.split_whitespace()).collect();
        assert_eq!(words, text.split_whitespace().collect::<Vec<_>>(), "nothing lost");
        assert_eq!(wrap("short", 40), vec!["short".to_string()]);
    }
}
