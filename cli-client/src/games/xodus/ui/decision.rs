//! The pending decision as a keyboard menu: the prompt, who else may take
//! it, then this terminal's legal options (keyed, the cursor highlighted,
//! a hint's options marked with rank and reason); when someone else
//! decides, who it is and what they may choose.

use super::model::Screen;
use super::style;
use crate::hint;
use crate::ui::menu;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

/// The panel's lines for `rows` rows of `cols` columns: the menu of
/// [`menu::lines`], every option wrapped whole and the cursor in view.
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
        let others = v.decision.options.iter().flat_map(|o| menu::wrap(&o.label, cols.saturating_sub(2).max(10), 2));
        for row in others.take(rows.saturating_sub(2)) {
            out.push(Line::styled(format!("  {row}"), style::dim()));
        }
        return out;
    }
    if let Some(hint) = screen.shared_hint() {
        out.push(Line::styled(hint, style::dim()));
    }
    let options: Vec<(String, String)> = mine
        .iter()
        .map(|(seat, o)| {
            let label = if screen.my_seats.len() > 1 { format!("{} [c{seat}]", o.label) } else { o.label.clone() };
            (o.id.clone(), label)
        })
        .collect();
    let hint = screen.hint.as_ref().filter(|h| h.current(v.public.seq));
    let (labels, marked) = hint::mark_labels(hint, v.public.seq, &options);
    if let Some(h) = hint.filter(|_| rows > out.len() + 2) {
        out.push(Line::styled(h.banner(), Style::new().fg(Color::LightYellow)));
    }
    let room = rows.saturating_sub(out.len()).max(1);
    out.extend(menu::lines_marked(&labels, &marked, screen.selected, room, cols));
    out
}
