//! The pending decision as a keyboard menu: the prompt, who else may take
//! it, then this terminal's legal options (numbered, the cursor
//! highlighted); when someone else decides, who it is and what they may
//! choose.

use super::model::Screen;
use super::style;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// The panel's lines for `rows` rows, scrolled so the cursor stays visible.
pub fn lines(screen: &Screen, rows: usize) -> Vec<Line<'static>> {
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
    let room = rows.saturating_sub(out.len()).max(1);
    let first = screen.selected.saturating_sub(room - 1);
    for (i, (seat, o)) in mine.iter().enumerate().skip(first).take(room) {
        let key = if i < 9 { format!("{}", i + 1) } else { " ".into() };
        let who = if screen.my_seats.len() > 1 { format!(" [c{seat}]") } else { String::new() };
        let text = format!("{key} {}{who}", o.label);
        let line = if i == screen.selected {
            Line::from(vec![Span::styled(format!("> {text}"), Style::new().fg(Color::Black).bg(Color::LightGreen))])
        } else {
            Line::raw(format!("  {text}"))
        };
        out.push(line);
    }
    out
}
