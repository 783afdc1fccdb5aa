//! The status bar: game, round, phase, difficulty, whose decision it is,
//! the supply counts and, where it fits, how the crew wins, on one line.

use super::model::Screen;
use super::style;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// The status line for a terminal `width` columns wide (the win rule
/// only where it fits).
pub fn line(screen: &Screen, width: usize) -> Line<'static> {
    let v = &screen.view;
    let mut spans = vec![
        Span::styled(" X-ODUS ", Style::new().fg(Color::Black).bg(Color::Magenta).add_modifier(Modifier::BOLD)),
        Span::raw(format!(" {} ", screen.game_id)),
        Span::styled(format!("round {} {} ", v.round, v.phase.as_str()), style::title()),
        Span::styled(format!("{} ", v.config.difficulty.as_str()), style::dim()),
    ];
    if let Some(o) = &v.public.outcome {
        let (text, color) = if o.won { ("VICTORY", Color::LightGreen) } else { ("DEFEAT", Color::LightRed) };
        spans.push(Span::styled(
            format!("{text} ({}) ", o.cause.replace('_', " ")),
            Style::new().fg(color).add_modifier(Modifier::BOLD),
        ));
    } else {
        let st = if screen.my_turn() {
            Style::new().fg(Color::Black).bg(Color::LightGreen)
        } else {
            Style::new().fg(Color::Yellow)
        };
        spans.push(Span::styled(format!("turn: {} ", screen.deciders_text()), st));
    }
    spans.push(Span::styled(format!(" stack {} seq {} ", v.stack_remaining, v.public.seq), style::dim()));
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    let rule = format!("win: {} ", super::help::WIN_RULE);
    if v.public.outcome.is_none() && used + rule.chars().count() + 7 <= width {
        spans.push(Span::styled(rule, style::dim()));
    }
    spans.push(Span::styled("? rules", style::dim()));
    Line::from(spans)
}
