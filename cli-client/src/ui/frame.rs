//! What every screen draws its panels with: a bordered panel with its
//! title, the room inside a panel, and the rules card laid over the screen
//! (wrapped, centred, as tall as it needs or the screen allows).

use super::style;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

/// A bordered panel of lines with its title.
pub fn panel(title: &str, lines: Vec<Line<'static>>, area: Rect, buf: &mut Buffer) {
    Paragraph::new(lines)
        .block(Block::bordered().title(Line::styled(format!(" {title} "), style::title())))
        .render(area, buf);
}

/// Rows inside a bordered panel.
pub fn inner_rows(r: Rect) -> usize {
    r.height.saturating_sub(2) as usize
}

/// Columns inside a bordered panel.
pub fn inner_cols(r: Rect) -> usize {
    r.width.saturating_sub(2) as usize
}

/// The rules card over the screen: at most 104 columns wide, centred,
/// wrapped at words.
pub fn rules_card(lines: Vec<Line<'static>>, area: Rect, buf: &mut Buffer) {
    let w = area.width.min(104);
    let inside = usize::from(w.saturating_sub(2)).max(1);
    let rows: usize = lines.iter().map(|l| l.width().div_ceil(inside).max(1)).sum();
    let h = area.height.min(u16::try_from(rows + 2).unwrap_or(u16::MAX));
    let r = Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h);
    Clear.render(r, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(Block::bordered().title(Line::styled(" Rules and keys (? to close) ", style::title())))
        .render(r, buf);
}
