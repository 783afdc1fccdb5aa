//! The status bar: the game, its round, whose decision it is (or the
//! result), the sequence number and the help key, on one line.

use super::model::LegioScreen;
use crate::ui::style;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// The status line.
pub fn line(screen: &LegioScreen) -> Line<'static> {
    let t = &screen.table;
    let title = match t.game_type.as_str() {
        crate::table::LEGIO => " VII LEGIO ".to_string(),
        other => format!(" {} ", other.to_uppercase()),
    };
    let mut spans = vec![
        Span::styled(title, Style::new().fg(Color::Black).bg(Color::Red).add_modifier(Modifier::BOLD)),
        Span::raw(format!(" {} ", screen.game_id)),
    ];
    if let Some(v) = screen.view() {
        spans.push(Span::styled(format!("round {} ", v.public.round), style::title()));
    }
    if t.outcome.is_some() {
        spans.push(Span::styled("GAME OVER ", Style::new().fg(Color::LightGreen).add_modifier(Modifier::BOLD)));
    } else {
        let st = if screen.my_turn() {
            Style::new().fg(Color::Black).bg(Color::LightGreen)
        } else {
            Style::new().fg(Color::Yellow)
        };
        spans.push(Span::styled(format!("turn: {} ", screen.deciders_text()), st));
    }
    spans.push(Span::styled(format!(" seq {} ", t.seq), style::dim()));
    spans.push(Span::styled("? help", style::dim()));
    Line::from(spans)
}
