//! Which panels fit, and where. From 100x30 up: status bar, map with the
//! ship mats, Corruption mat and fight panel beside it, and the decision
//! menu beside the event log (and the talk, once someone talks). Smaller
//! (an 80x24 terminal): the Corruption track and the Keys on a line each,
//! a short line per ship, a small map around the active ship (or the
//! space the highlighted option names), then the menu and the log
//! (beside the talk). Tiny: a single line saying so.

use super::map::{MapWidget, choice_hex, hint_hexes, orientation_preview};
use super::model::Screen;
use super::style;
use super::{corruption, decision, fight, help, log, ships, status, talk};
use crate::ui::clock;
use crate::ui::frame::{self, inner_cols, inner_rows, panel};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget};

/// Narrowest terminal for the full screen.
pub const MIN_WIDTH: u16 = 100;
/// Shortest terminal for the full screen.
pub const MIN_HEIGHT: u16 = 30;
/// Width of the right-hand column (mats, Corruption, fight).
const SIDE_WIDTH: u16 = 46;
/// Height of the bottom row (menu and log).
const BOTTOM_HEIGHT: u16 = 9;

/// Draws the screen into a frame (the terminal's whole area).
pub fn draw(frame: &mut Frame, screen: &Screen) {
    let area = frame.area();
    render(screen, area, frame.buffer_mut());
}

/// Renders the screen into `area` of `buf`.
pub fn render(screen: &Screen, area: Rect, buf: &mut Buffer) {
    if area.width < 30 || area.height < 8 {
        Paragraph::new(vec![
            Line::raw("X-ODUS: terminal too small"),
            Line::raw(format!("{}x{}, need 100x30", area.width, area.height)),
        ])
        .render(area, buf);
        return;
    }
    let clock_rows = clock::rows(&screen.clocks);
    let [top, clocks, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Length(clock_rows), Constraint::Fill(1)]).areas(area);
    Paragraph::new(status::line(screen, area.width as usize)).render(top, buf);
    let mine: Vec<u32> = screen.my_seats.iter().map(|s| u32::from(*s)).collect();
    Paragraph::new(clock::line(&screen.clocks, &mine, |s| format!("captain {s}"))).render(clocks, buf);
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        compact(screen, body, buf);
    } else {
        full(screen, body, buf);
    }
    if screen.show_help {
        frame::rules_card(help::lines(), area, buf);
    }
}

/// What the highlighted space is: ": (1,0) Rust Cathedral, allied".
fn map_title(screen: &Screen, choice: Option<&xodus_engine::Choice>) -> String {
    let Some(hex) = choice.and_then(choice_hex) else {
        return String::new();
    };
    let content = xodus_engine::content::Content::get();
    let tile = screen.view.public.tiles.iter().find(|t| t.hex == hex);
    match tile.and_then(|t| content.tiles.get(t.tile as usize)) {
        Some(def) => format!(": ({},{}) {}, {}", hex.q, hex.r, def.name, style::kind_name(def.kind)),
        None => format!(": ({},{}) unexplored", hex.q, hex.r),
    }
}

/// The space the map keeps in view: the tile being placed, else the
/// active ship's system, else this terminal's first ship.
fn focus_hex(screen: &Screen) -> Option<xodus_engine::Hex> {
    let pb = &screen.view.public;
    if let xodus_engine::Pending::Orientation { hex, .. } = &pb.pending {
        return Some(*hex);
    }
    let seat = pb.active.first().or(screen.my_seats.first())?;
    pb.ships.get(*seat as usize).map(|s| s.hex)
}

/// Rows of the compact screen's map, borders included: one row of
/// systems with the lanes to the rows above and below.
const COMPACT_MAP_ROWS: u16 = 7;

fn compact(screen: &Screen, body: Rect, buf: &mut Buffer) {
    let roomy = body.height >= 20;
    let ship_rows = if roomy { screen.view.public.ships.len() as u16 } else { 0 };
    let map_rows = if roomy && body.width >= 40 { COMPACT_MAP_ROWS } else { 0 };
    let track_rows = if roomy { 2 } else { 1 };
    let [track, ships_area, map_area, menu, log_area] = Layout::vertical([
        Constraint::Length(track_rows),
        Constraint::Length(ship_rows),
        Constraint::Length(map_rows),
        Constraint::Fill(3),
        Constraint::Fill(2),
    ])
    .areas(body);
    // The Corruption track, and the Keys when there is room.
    let mut mat = corruption::lines(&screen.view);
    mat.truncate(usize::from(track_rows));
    Paragraph::new(mat).render(track, buf);
    Paragraph::new(ships::short_lines(screen)).render(ships_area, buf);
    if map_rows > 0 {
        let choice = screen.selected_option().map(|(_, o)| &o.choice);
        let highlight = choice.and_then(choice_hex);
        let title = format!(" Map{} (100x30: mats) ", map_title(screen, choice));
        let block = Block::bordered().title(Line::styled(title, style::title()));
        let inner = block.inner(map_area);
        block.render(map_area, buf);
        MapWidget {
            view: &screen.view,
            pan: screen.pan,
            highlight,
            preview: orientation_preview(&screen.view, choice),
            // The space the option names, else the usual focus.
            focus: highlight.or_else(|| focus_hex(screen)),
            hinted: hint_hexes(screen),
        }
        .render(inner, buf);
    }
    panel("Decision", decision::lines(screen, inner_rows(menu), inner_cols(menu)), menu, buf);
    let log_area = with_talk(screen, log_area, buf);
    panel("Log", log::lines(screen, inner_rows(log_area), log_area.width.saturating_sub(2) as usize), log_area, buf);
}

/// Once there is talk (or a line is typed): the talk panel drawn in the
/// right half of `area` (the lower half of a narrow one); the rest is
/// returned for the log.
fn with_talk(screen: &Screen, area: Rect, buf: &mut Buffer) -> Rect {
    if !screen.talk.shown() {
        return area;
    }
    let [rest, talk_area] = if area.width >= 60 {
        Layout::horizontal([Constraint::Percentage(50), Constraint::Fill(1)]).areas(area)
    } else {
        Layout::vertical([Constraint::Percentage(50), Constraint::Fill(1)]).areas(area)
    };
    talk::draw_panel(screen, talk_area, buf);
    rest
}

fn full(screen: &Screen, body: Rect, buf: &mut Buffer) {
    let bottom_height = BOTTOM_HEIGHT + body.height.saturating_sub(MIN_HEIGHT) / 2;
    let [middle, bottom] = Layout::vertical([Constraint::Fill(1), Constraint::Length(bottom_height)]).areas(body);
    let [map_area, side] = Layout::horizontal([Constraint::Fill(1), Constraint::Length(SIDE_WIDTH)]).areas(middle);
    let ship_rows = screen.view.public.ships.len() as u16;
    let want_ships = if side.height >= 3 * ship_rows + 2 + 5 + 6 { 3 * ship_rows } else { 2 * ship_rows };
    let [ships_area, corr_area, fight_area] =
        Layout::vertical([Constraint::Length(want_ships + 2), Constraint::Length(5), Constraint::Fill(1)]).areas(side);
    let menu_share = if screen.talk.shown() { 40 } else { 50 };
    let [menu_area, log_area] =
        Layout::horizontal([Constraint::Percentage(menu_share), Constraint::Fill(1)]).areas(bottom);
    let log_area = with_talk(screen, log_area, buf);

    let choice = screen.selected_option().map(|(_, o)| &o.choice);
    let block = Block::bordered().title(Line::styled(format!(" Map{} ", map_title(screen, choice)), style::title()));
    let inner = block.inner(map_area);
    block.render(map_area, buf);
    MapWidget {
        view: &screen.view,
        pan: screen.pan,
        highlight: choice.and_then(choice_hex),
        preview: orientation_preview(&screen.view, choice),
        focus: focus_hex(screen),
        hinted: hint_hexes(screen),
    }
    .render(inner, buf);

    panel("Ships", ships::lines(screen, inner_rows(ships_area)), ships_area, buf);
    panel("Corruption", corruption::lines(&screen.view), corr_area, buf);
    panel("Threats and dice", fight::lines(screen, inner_rows(fight_area)), fight_area, buf);
    let hint = if screen.my_turn() { " (Enter sends)" } else { "" };
    let title = format!("Decision: {}{hint}", screen.view.decision.kind.as_str().replace('_', " "));
    panel(&title, decision::lines(screen, inner_rows(menu_area), inner_cols(menu_area)), menu_area, buf);
    panel(
        "Log (PgUp/PgDn)",
        log::lines(screen, inner_rows(log_area), log_area.width.saturating_sub(2) as usize),
        log_area,
        buf,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use xodus_engine::{Difficulty, Game, GameConfig, Viewer};

    fn text(buf: &Buffer) -> String {
        let area = buf.area;
        (0..area.height)
            .map(|y| (0..area.width).map(|x| buf[(x, y)].symbol().to_string()).collect::<String>() + "\n")
            .collect()
    }

    #[test]
    fn an_80x24_terminal_shows_the_track_the_ships_a_map_the_menu_and_the_log() {
        let game = Game::new(GameConfig::random(7, 3, Difficulty::Casual)).expect("valid config");
        let screen = Screen::new("g-test", game.view(Viewer::Spectator), vec![0]);
        let area = Rect::new(0, 0, 80, 24);
        let mut buf = Buffer::empty(area);
        render(&screen, area, &mut buf);
        let shown = text(&buf);
        let rise = screen.view.public.corruption.rise;
        assert!(shown.contains(&format!("/{rise} ")), "the Corruption track:\n{shown}");
        assert!(shown.contains("Keys "), "the Keys:\n{shown}");
        assert!(shown.contains(" Map"), "a map:\n{shown}");
        assert!(shown.contains("Decision") && shown.contains("Log"), "menu and log:\n{shown}");
        // The map draws the starting system around the first ship.
        let map_top = shown.lines().position(|l| l.contains(" Map")).expect("map title row");
        let map_rows: Vec<&str> = shown.lines().skip(map_top + 1).take(usize::from(COMPACT_MAP_ROWS) - 2).collect();
        assert!(
            map_rows.iter().any(|l| l.trim_matches(|c| c == '│' || c == ' ').len() > 3),
            "the map is drawn:\n{shown}"
        );
    }
}
