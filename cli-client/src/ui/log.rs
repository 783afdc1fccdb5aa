//! The scrolling event log, for every game: the newest lines at the
//! bottom, scrolled back with PgUp/PgDn, long lines wrapped at words (never
//! cut), and the one-line message (a refused choice, a question waiting
//! for y) wrapped under them.

use super::menu::wrap;
use super::style;
use ratatui::style::{Color, Style};
use ratatui::text::Line;

/// `log` (scrolled up by `scroll` lines from the bottom) and the message,
/// in `rows` rows of `cols` columns.
pub fn wrapped(log: &[String], scroll: usize, status: Option<&str>, rows: usize, cols: usize) -> Vec<Line<'static>> {
    let cols = cols.max(10);
    let message: Vec<String> = status.map(|m| wrap(m, cols, 2)).unwrap_or_default();
    let room = rows.saturating_sub(message.len());
    let end = log.len().saturating_sub(scroll);
    let start = end.saturating_sub(room);
    let text: Vec<String> = log[start..end].iter().flat_map(|l| wrap(l, cols, 4)).collect();
    let mut out: Vec<Line<'static>> =
        text[text.len().saturating_sub(room)..].iter().map(|l| Line::raw(l.clone())).collect();
    out.extend(message.into_iter().map(|m| Line::styled(m, Style::new().fg(Color::LightRed))));
    if out.is_empty() {
        out.push(Line::styled("no events yet", style::dim()));
    }
    // The message's end is what matters (a question's keys): keep it.
    let extra = out.len().saturating_sub(rows.max(1));
    out.drain(..extra);
    out
}

#[cfg(test)]
mod tests {
    use super::wrapped;

    #[test]
    fn a_long_question_is_wrapped_whole_under_the_log() {
        let log: Vec<String> = (0..10).map(|i| format!("event {i}")).collect();
        let q = "Leave seat 0? It opens for anyone; you go on watching. y: leave, any other key: stay";
        let text: Vec<String> = wrapped(&log, 0, Some(q), 5, 30).iter().map(|l| l.to_string()).collect();
        assert_eq!(text.len(), 5, "{text:?}");
        assert!(text.iter().all(|l| l.chars().count() <= 30), "{text:?}");
        assert!(text.last().is_some_and(|l| l.contains("stay")), "the question ends on screen: {text:?}");
        assert!(text.iter().any(|l| l.contains("y: leave")), "{text:?}");
    }
}
