//! A decision's options as a keyboard menu, for every game: each option
//! has a key (1-9, then letters that no other command uses), is wrapped
//! whole at word boundaries, and the list scrolls so the highlighted
//! option is always in view, with "more above/below" markers when some
//! are out of it. Options a hint advises are drawn marked (their label
//! carries the rank and reason, `hint::mark_labels`).

use super::style;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};

/// The menu keys in order: digits, then the letters the screens do not
/// use for anything else (j/k move, q quits, u undoes, x leaves, y
/// confirms).
const KEYS: &str = "123456789abcdefghilmnoprstvwz";

/// The key that picks option `index`, if it has one.
pub fn key(index: usize) -> Option<char> {
    KEYS.chars().nth(index)
}

/// The option a key picks, if it is a menu key.
pub fn index_of(key: char) -> Option<usize> {
    KEYS.chars().position(|k| k == key)
}

/// The keys in words for the help: "1-9, a-z (not j k q u x y)".
pub fn keys_help() -> &'static str {
    "1-9 then a-z (but j k q u x y) pick an option"
}

/// `text` cut into rows of at most `cols` characters at spaces (a word
/// longer than a row is split); rows after the first are indented by
/// `indent` spaces. Nothing is dropped.
pub fn wrap(text: &str, cols: usize, indent: usize) -> Vec<String> {
    let cols = cols.max(indent + 8);
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    let room = |rows: &Vec<String>| if rows.is_empty() { cols } else { cols - indent };
    for word in text.split(' ') {
        let mut word: String = word.to_string();
        loop {
            let len = row.chars().count();
            let sep = usize::from(len > 0);
            if len + sep + word.chars().count() <= room(&rows) {
                if sep == 1 {
                    row.push(' ');
                }
                row.push_str(&word);
                break;
            }
            if len > 0 {
                rows.push(std::mem::take(&mut row));
                continue;
            }
            // A word longer than a whole row: split it.
            let head: String = word.chars().take(room(&rows)).collect();
            word = word.chars().skip(room(&rows)).collect();
            rows.push(head);
            if word.is_empty() {
                break;
            }
        }
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(row);
    }
    rows.into_iter().enumerate().map(|(i, r)| if i == 0 { r } else { format!("{}{r}", " ".repeat(indent)) }).collect()
}

/// Styled lines wrapped like [`wrap`], each row keeping its line's first
/// style.
pub fn wrap_lines(lines: Vec<Line<'static>>, cols: usize, indent: usize) -> Vec<Line<'static>> {
    lines
        .into_iter()
        .flat_map(|l| {
            let style = l.spans.first().map(|s| s.style).unwrap_or_default();
            let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            wrap(&text, cols.max(10), indent).into_iter().map(move |r| Line::styled(r, style))
        })
        .collect()
}

/// The menu's lines for `labels` in `rows` rows of `cols` columns, the
/// option at `selected` highlighted and in view.
pub fn lines(labels: &[String], selected: usize, rows: usize, cols: usize) -> Vec<Line<'static>> {
    lines_marked(labels, &[], selected, rows, cols)
}

/// [`lines`] with the options whose `marked` is true (a hint's) in the
/// hint's colour.
pub fn lines_marked(
    labels: &[String],
    marked: &[bool],
    selected: usize,
    rows: usize,
    cols: usize,
) -> Vec<Line<'static>> {
    let n = labels.len();
    if n == 0 || rows == 0 {
        return Vec::new();
    }
    let selected = selected.min(n - 1);
    let item = |i: usize| {
        let k = key(i).map_or(' ', |k| k);
        let mark = if i == selected { '>' } else { ' ' };
        let rows = wrap(&labels[i], cols.saturating_sub(4), 2);
        rows.into_iter()
            .enumerate()
            .map(|(n, r)| if n == 0 { format!("{mark} {k} {r}") } else { format!("    {r}") })
            .collect::<Vec<_>>()
    };
    let items: Vec<Vec<String>> = (0..n).map(item).collect();
    let (first, last) = window(&items.iter().map(Vec::len).collect::<Vec<_>>(), selected, rows);
    let highlight = Style::new().fg(Color::Black).bg(Color::LightGreen);
    let mut out = Vec::new();
    if first > 0 {
        out.push(Line::styled(format!("  ▲ {first} more above"), style::dim()));
    }
    for (i, rows_of) in items.iter().enumerate().take(last + 1).skip(first) {
        for row in rows_of {
            out.push(if i == selected {
                Line::from(vec![Span::styled(row.clone(), highlight)])
            } else if marked.get(i).copied().unwrap_or(false) {
                Line::styled(row.clone(), Style::new().fg(Color::LightYellow))
            } else {
                Line::raw(row.clone())
            });
        }
    }
    if last + 1 < n {
        out.push(Line::styled(format!("  ▼ {} more below (Down, or its key)", n - 1 - last), style::dim()));
    }
    out.truncate(rows);
    out
}

/// The first and last options shown, given each option's height, so that
/// `selected` is in view with room for the markers: as many options
/// above it as fit after those below it that come first.
fn window(heights: &[usize], selected: usize, rows: usize) -> (usize, usize) {
    let n = heights.len();
    let total: usize = heights.iter().sum();
    if total <= rows {
        return (0, n - 1);
    }
    let fits = |first: usize, last: usize| {
        let markers = usize::from(first > 0) + usize::from(last + 1 < n);
        heights[first..=last].iter().sum::<usize>() + markers <= rows
    };
    // Start from the top when the selected option fits there.
    let mut first = 0;
    while first < selected && !fits(first, selected) {
        first += 1;
    }
    let mut last = selected;
    while last + 1 < n && fits(first, last + 1) {
        last += 1;
    }
    (first, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(lines: &[Line<'static>]) -> Vec<String> {
        lines.iter().map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect()).collect()
    }

    #[test]
    fn keys_go_past_nine_with_letters_no_command_uses() {
        assert_eq!(key(0), Some('1'));
        assert_eq!(key(8), Some('9'));
        assert_eq!(key(9), Some('a'));
        for reserved in ['j', 'k', 'q', 'u', 'x', 'y'] {
            assert_eq!(index_of(reserved), None, "{reserved} is a command key");
        }
        for i in 0..KEYS.len() {
            assert_eq!(index_of(key(i).expect("a key")), Some(i));
        }
        assert!(KEYS.len() >= 28, "at least 28 options have a key");
    }

    #[test]
    fn a_long_label_wraps_whole_and_keeps_every_word() {
        let label = "Explore with Navigation Drift (discard 2 cards: your whole hand; +1 capture XP)";
        let rows = wrap(label, 30, 4);
        assert!(rows.len() > 1 && rows.iter().all(|r| r.chars().count() <= 30), "{rows:?}");
        let words: Vec<&str> = rows.iter().flat_map(|r| r.split_whitespace()).collect();
        assert_eq!(words, label.split_whitespace().collect::<Vec<_>>());
        let long = "x".repeat(50);
        let rows = wrap(&long, 20, 2);
        assert_eq!(rows.iter().map(|r| r.trim().len()).sum::<usize>(), 50, "{rows:?}");
    }

    #[test]
    fn every_option_of_a_long_menu_can_be_brought_into_view_with_markers() {
        let labels: Vec<String> = (0..16).map(|i| format!("Option number {i} with some words")).collect();
        for selected in 0..16 {
            let shown = text(&lines(&labels, selected, 8, 40));
            assert!(shown.len() <= 8, "{shown:?}");
            let chosen = format!("> {} Option number {selected} ", key(selected).expect("a key"));
            assert!(shown.iter().any(|l| l.starts_with(&chosen)), "{selected}: {shown:?}");
            if selected > 6 {
                assert!(shown[0].contains("more above"), "{shown:?}");
            }
            if selected < 9 {
                assert!(shown.last().is_some_and(|l| l.contains("more below")), "{shown:?}");
            }
        }
        let all = text(&lines(&labels, 0, 20, 40));
        assert_eq!(all.len(), 16, "all fit: no marker");
    }
}
