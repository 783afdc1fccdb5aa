//! The X-ODUS log panel: the screen's event lines through the shared
//! scrolling log (`crate::ui::log`).

use super::model::Screen;
use ratatui::text::Line;

/// The X-ODUS log panel's lines for `rows` rows of `cols` columns.
pub fn lines(screen: &Screen, rows: usize, cols: usize) -> Vec<Line<'static>> {
    crate::ui::log::wrapped(&screen.log, screen.log_scroll, screen.status.as_deref(), rows, cols)
}
