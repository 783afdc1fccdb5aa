//! The status bar: the game, its round, whose decision it is (or the
//! result), how far behind the live game a spectator's state is, the
//! win rule, the sequence number and the rules key, on one line: the
//! least needed parts go first when the terminal is narrow.

use super::help::WIN_RULE;
use super::model::LegioScreen;
use crate::ui::style;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// The status line for a terminal `width` columns wide.
pub fn line(screen: &LegioScreen, width: usize) -> Line<'static> {
    let t = &screen.table;
    let title = format!(" {} ", crate::games::title(&t.game_type).to_uppercase());
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
    if let Some(behind) = screen.behind() {
        spans.push(Span::styled(format!("DELAYED {behind} choices "), Style::new().fg(Color::Black).bg(Color::Yellow)));
    }
    let used: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    let tail = [format!(" {WIN_RULE} "), format!(" seq {} ", t.seq), "? rules".to_string()];
    let mut room = width.saturating_sub(used);
    // The rules key always; then the seq; then the win rule, as room allows.
    let fits: Vec<bool> = {
        let mut keep = [false; 3];
        for i in [2usize, 1, 0] {
            let n = tail[i].chars().count();
            if n <= room {
                keep[i] = true;
                room -= n;
            }
        }
        keep.to_vec()
    };
    for (text, keep) in tail.into_iter().zip(fits) {
        if keep {
            spans.push(Span::styled(text, style::dim()));
        }
    }
    Line::from(spans)
}
