//! The talk panel, for every game: the lines heard, newest at the bottom,
//! each wrapped at words (never past the panel, never more than one line
//! per row), the speaker in the seat's colour, an AI's plan in italics,
//! signals in the server's words in brackets; over them the seats muted;
//! under them, while one is typed, the line being typed with whom it is
//! for and its keys.

use super::menu::wrap;
use super::style;
use crate::seats::Seat;
use crate::talk::Talk;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// The panel's title for a panel `width` columns wide (its keys while a
/// line is typed, as many as fit).
pub fn title(talk: &Talk, width: u16) -> &'static str {
    let titles: &[&'static str] = if talk.draft.is_some() {
        &["Talk (Enter says it, Tab: to whom, Esc: drop)", "Talk (Enter, Tab: to whom, Esc)", "Talk (Enter, Tab, Esc)"]
    } else {
        &["Talk (T: say something)", "Talk (T)"]
    };
    let room = usize::from(width).saturating_sub(4);
    titles.iter().copied().find(|t| t.chars().count() <= room).unwrap_or("Talk")
}

/// The panel's lines in `rows` rows of `cols` columns: the talk heard
/// (seats named by `name`, this terminal's `mine`) and the line being
/// typed.
pub fn lines(
    talk: &Talk,
    name: &dyn Fn(Seat) -> String,
    mine: &[Seat],
    rows: usize,
    cols: usize,
) -> Vec<Line<'static>> {
    if rows == 0 || cols == 0 {
        return Vec::new();
    }
    let cols = cols.max(10);
    let mut draft: Vec<Line<'static>> = Vec::new();
    if let Some(d) = &talk.draft {
        let to = d.audience.words(name);
        let typed = format!("to {to}> {}_", crate::talk::clean(&d.text));
        let style = Style::new().fg(Color::LightGreen);
        let rows_of = wrap(&typed, cols, 2);
        // The end of a long line is where the typing is.
        let keep = rows_of.len().min(rows.max(1));
        draft = rows_of[rows_of.len() - keep..].iter().map(|r| Line::styled(r.clone(), style)).collect();
    }
    let muted = (!talk.muted.is_empty()).then(|| {
        let names: Vec<String> = talk.muted.iter().map(|s| name(*s)).collect();
        let text = format!("muted: {} ({} then its number: hear again)", names.join(", "), crate::hint::MUTE_KEY);
        Line::styled(wrap(&text, cols, 2).swap_remove(0), style::dim())
    });
    let room = rows.saturating_sub(draft.len()).saturating_sub(usize::from(muted.is_some() && rows > draft.len() + 1));
    let mut heard: Vec<Line<'static>> = Vec::new();
    for line in talk.lines.iter().rev() {
        if heard.len() >= room {
            break;
        }
        let (head, body) = line.parts(name, mine);
        let body_style =
            if line.intent { Style::new().fg(Color::Gray).add_modifier(Modifier::ITALIC) } else { Style::new() };
        let head_style = style::seat_style(line.speaker);
        let full = format!("{head}{body}");
        let mut rows_of: Vec<Line<'static>> = Vec::new();
        for (i, row) in wrap(&full, cols, 2).into_iter().enumerate() {
            let head_len = head.chars().count();
            if i == 0 && row.chars().count() >= head_len {
                let rest: String = row.chars().skip(head_len).collect();
                let speaker: String = row.chars().take(head_len).collect();
                rows_of.push(Line::from(vec![Span::styled(speaker, head_style), Span::styled(rest, body_style)]));
            } else if i == 0 {
                rows_of.push(Line::styled(row, head_style));
            } else {
                rows_of.push(Line::styled(row, body_style));
            }
        }
        // Newest last: a line's rows go in front of the later lines'.
        let take = rows_of.len().min(room - heard.len());
        let skip = rows_of.len() - take;
        for row in rows_of.into_iter().skip(skip).rev() {
            heard.push(row);
        }
    }
    heard.reverse();
    if heard.is_empty() && draft.is_empty() && muted.is_none() {
        heard.push(Line::styled("nobody has said anything yet (T: say something)", style::dim()));
    }
    if let Some(m) = muted.filter(|_| rows > draft.len() + 1) {
        heard.insert(0, m);
    }
    heard.extend(draft);
    heard.truncate(rows);
    heard
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::talk::{Audience, Draft, Heard};

    fn text(lines: &[Line<'static>]) -> Vec<String> {
        lines.iter().map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect()).collect()
    }

    fn name(s: Seat) -> String {
        format!("captain {s}")
    }

    #[test]
    fn the_newest_lines_fit_the_panel_wrapped_and_the_draft_stays_under_them() {
        let mut talk = Talk::default();
        let said = |n: u64, text: &str| Heard { talk_seq: n, speaker: 1, text: text.into(), ..Heard::default() };
        talk.hear(vec![said(1, "first"), said(2, &"long words ".repeat(12)), said(3, "last")]);
        let shown = text(&lines(&talk, &name, &[0], 4, 30));
        assert_eq!(shown.len(), 4, "{shown:?}");
        assert!(shown.iter().all(|l| l.chars().count() <= 30), "{shown:?}");
        assert_eq!(shown[3], "captain 1: last");
        assert!(!shown.iter().any(|l| l.contains("first")), "the oldest line makes room: {shown:?}");
        talk.draft = Some(Draft { text: "on my way".into(), audience: Audience::Seat(2) });
        let shown = text(&lines(&talk, &name, &[0], 4, 30));
        assert_eq!(shown.last().map(String::as_str), Some("to captain 2> on my way_"), "{shown:?}");
        assert_eq!(shown[2], "captain 1: last");
        talk.muted = vec![2, 3];
        let shown = text(&lines(&talk, &name, &[0], 4, 60));
        assert_eq!(shown.len(), 4, "{shown:?}");
        assert_eq!(shown[0], "muted: captain 2, captain 3 (Z then its number: hear again)");
        assert_eq!(shown[3], "to captain 2> on my way_", "the draft stays at the bottom");
    }
}
