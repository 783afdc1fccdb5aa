//! The scrolling event log (each event's `Event.summary`, and the
//! client's own notes): the newest lines at the bottom, PgUp/PgDn.

use super::model::LegioScreen;
use ratatui::text::Line;

/// The panel's lines for `rows` rows of `cols` columns, long lines
/// wrapped.
pub fn lines(screen: &LegioScreen, rows: usize, cols: usize) -> Vec<Line<'static>> {
    crate::ui::log::wrapped(&screen.log, screen.log_scroll, screen.status.as_deref(), rows, cols)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::legio::read as legio_read;
    use legio_engine::{Game, GameConfig, Viewer};

    #[test]
    fn long_lines_wrap_and_the_newest_stays_at_the_bottom() {
        let g = Game::new(GameConfig::new(2, 5)).expect("valid config");
        let mut s = LegioScreen::new("g-1", legio_read::table(g.view(Viewer::Seat(0)), 0), Some(0));
        s.push_choice(vec!["Commander 1 sets command profile 0 (Diplomacy +3, Capture +0)".into()]);
        s.push_choice(vec!["Commander 2 embarks a Diplomat".into()]);
        let text: Vec<String> = lines(&s, 3, 30).iter().map(|l| l.to_string()).collect();
        assert_eq!(text.len(), 3, "{text:?}");
        assert!(text.iter().all(|l| l.chars().count() <= 30), "{text:?}");
        assert_eq!(text[2], "Commander 2 embarks a Diplomat");
        assert!(text[1].contains("Capture +0)"), "the wrapped end of the long line: {text:?}");
    }
}
