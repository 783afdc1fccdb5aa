//! Which panels fit, and where. Tab turns pages: the table (page 0), the
//! Red Nebula with the scores, every commander's board, the whole log.
//! The table from 100x30 up: the status bar; the Nebula beside the
//! commanders; the viewer's hand and objectives beside the scores,
//! Imperator and contacts; the decision (with the landing or mission
//! under way) beside the log and, once someone talks, the talk. Smaller
//! (80x24): the decision, the viewer's own board and its secrets come
//! first, the talk's last lines over the footer, the rest a Tab away.
//! Tiny: a line saying so. Without a VII Legio view (a game the client
//! has no board for): status, menu, log and talk. Text is wrapped at
//! words, never cut.

use super::model::{LegioScreen, PAGES};
use super::{board, commanders, decision, hand, help, log, scores, status, talk};
use crate::ui::clock;
use crate::ui::frame::{self, inner_cols, inner_rows, panel};
use crate::ui::style;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget};

/// Narrowest terminal for the full screen.
const MIN_WIDTH: u16 = 100;
/// Shortest terminal for the full screen.
const MIN_HEIGHT: u16 = 30;
/// Width of the commanders' panel.
const SIDE_WIDTH: u16 = 50;

/// Draws the screen into a frame (the terminal's whole area).
pub fn draw(frame: &mut Frame, screen: &LegioScreen) {
    let area = frame.area();
    render(screen, area, frame.buffer_mut());
}

fn rows(r: Rect) -> usize {
    inner_rows(r)
}

fn cols(r: Rect) -> usize {
    inner_cols(r)
}

/// Renders the screen into `area` of `buf`.
pub fn render(screen: &LegioScreen, area: Rect, buf: &mut Buffer) {
    if area.width < 30 || area.height < 8 {
        Paragraph::new(vec![
            Line::raw("VII Legio: terminal too small"),
            Line::raw(format!("{}x{}, need 80x24", area.width, area.height)),
        ])
        .render(area, buf);
        return;
    }
    let clock_rows = clock::rows(&screen.clocks);
    let [top, clocks, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Length(clock_rows), Constraint::Fill(1)]).areas(area);
    Paragraph::new(status::line(screen, area.width as usize)).render(top, buf);
    let mine: Vec<u32> = screen.my_seat.iter().map(|s| u32::from(*s)).collect();
    let name = |s: u32| crate::games::seat_name(&screen.table.game_type, s);
    Paragraph::new(clock::line(&screen.clocks, &mine, name)).render(clocks, buf);
    match (screen.view(), screen.page) {
        (None, _) => bare(screen, body, buf),
        (Some(_), 1..) => page(screen, body, buf),
        (Some(_), _) if area.width >= MIN_WIDTH && area.height >= MIN_HEIGHT => full(screen, body, buf),
        (Some(_), _) => compact(screen, body, buf),
    }
    if screen.show_help {
        frame::rules_card(help::lines(), area, buf);
    }
}

/// The decision panel: the prompt, the landing or mission, the menu.
fn decision_panel(screen: &LegioScreen, area: Rect, buf: &mut Buffer) {
    let hint = if screen.my_turn() { " (Enter sends)" } else { "" };
    let title = if screen.table.outcome.is_some() {
        "Result".to_string()
    } else {
        format!("Decision: {}{hint}", screen.table.decision.kind.replace('_', " "))
    };
    panel(&title, decision::lines(screen, rows(area), cols(area)), area, buf);
}

fn log_panel(screen: &LegioScreen, area: Rect, buf: &mut Buffer) {
    panel("Log (PgUp/PgDn)", log::lines(screen, rows(area), cols(area)), area, buf);
}

fn menu_and_log(screen: &LegioScreen, area: Rect, buf: &mut Buffer, split: bool) {
    let [menu, log_area] = if split {
        Layout::horizontal([Constraint::Percentage(55), Constraint::Fill(1)]).areas(area)
    } else {
        Layout::vertical([Constraint::Percentage(60), Constraint::Fill(1)]).areas(area)
    };
    decision_panel(screen, menu, buf);
    log_panel(screen, with_talk(screen, log_area, buf), buf);
}

/// Once there is talk (or a line is typed): the talk panel drawn in the
/// right half of `area` (the lower half of a narrow one); the rest is
/// returned for the log.
fn with_talk(screen: &LegioScreen, area: Rect, buf: &mut Buffer) -> Rect {
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

/// The hand panel: the viewer's cards and objectives, wrapped.
fn hand_panel(v: &legio_engine::View, area: Rect, buf: &mut Buffer) {
    let title = match &v.mine {
        Some(m) => format!("Your hand ({}) and objectives", m.hand.len()),
        None => "Hands".to_string(),
    };
    Paragraph::new(hand::lines(v, rows(area), cols(area)))
        .block(Block::bordered().title(Line::styled(format!(" {title} "), style::title())))
        .render(area, buf);
}

fn full(screen: &LegioScreen, body: Rect, buf: &mut Buffer) {
    let Some(v) = screen.view() else { return };
    let side_cols = (SIDE_WIDTH - 2) as usize;
    let board_cols = body.width.saturating_sub(SIDE_WIDTH + 2) as usize;
    let board_lines = board::lines(v, board_cols);
    let roomy = commanders::lines(screen, v, usize::MAX, side_cols).len();
    let want_top = (board_lines.len().max(roomy) + 2) as u16;
    let top_h = want_top.min(body.height * 2 / 5);
    let score_lines = scores::lines(v, side_cols);
    let mid_room = (body.height / 4).max(5);
    let hand_lines = hand::lines(v, usize::from(mid_room - 2), board_cols);
    let mid_h = ((hand_lines.len().max(score_lines.len()) + 2) as u16).min(mid_room);
    let [top, mid, bottom] =
        Layout::vertical([Constraint::Length(top_h), Constraint::Length(mid_h), Constraint::Fill(1)]).areas(body);
    let [board_area, side] = Layout::horizontal([Constraint::Fill(1), Constraint::Length(SIDE_WIDTH)]).areas(top);
    panel("Red Nebula (border costs in cards)", board_lines, board_area, buf);
    let mut crew = commanders::lines(screen, v, rows(side), cols(side));
    fit(&mut crew, rows(side), "Tab: every board");
    panel("Commanders", crew, side, buf);
    let [hand_area, score_area] = Layout::horizontal([Constraint::Fill(1), Constraint::Length(SIDE_WIDTH)]).areas(mid);
    hand_panel(v, hand_area, buf);
    let mut scores = score_lines;
    fit(&mut scores, rows(score_area), "Tab: the scores");
    panel("Scores, Imperator, contacts", scores, score_area, buf);
    menu_and_log(screen, bottom, buf, true);
}

/// Cuts `lines` to `rows`, the last row saying where the rest is.
fn fit(lines: &mut Vec<Line<'static>>, rows: usize, rest: &str) {
    if lines.len() > rows && rows > 0 {
        let hidden = lines.len() - rows + 1;
        lines.truncate(rows - 1);
        lines.push(Line::styled(format!("… {hidden} more line(s): {rest}"), style::dim()));
    }
}

/// Small screens: the viewer's board and secrets, the decision, and a
/// line saying where the rest is (or the message waiting for a key).
fn compact(screen: &LegioScreen, body: Rect, buf: &mut Buffer) {
    let Some(v) = screen.view() else { return };
    let width = body.width as usize;
    let mut own = commanders::own(screen, v, width);
    if own.is_empty() {
        own = scores::lines(v, width).into_iter().take(2).collect();
    }
    let mut secrets = hand::lines(v, 4, width);
    fit(&mut secrets, (body.height as usize / 4).max(2), "Tab, then the log, or widen");
    let own_h = own.len() as u16;
    let secrets_h = secrets.len() as u16;
    // The talk's last lines (and the line typed) over the footer.
    let talk_h = if screen.talk.shown() { (body.height / 5).max(2) } else { 0 };
    let [own_area, secrets_area, menu, talk_area, foot] = Layout::vertical([
        Constraint::Length(own_h),
        Constraint::Length(secrets_h),
        Constraint::Fill(1),
        Constraint::Length(talk_h),
        Constraint::Length(footer_rows(screen, width)),
    ])
    .areas(body);
    Paragraph::new(own).render(own_area, buf);
    Paragraph::new(secrets).render(secrets_area, buf);
    decision_panel(screen, menu, buf);
    Paragraph::new(talk::panel_lines(screen, usize::from(talk_h), width)).render(talk_area, buf);
    footer(screen, foot, buf);
}

fn footer_rows(screen: &LegioScreen, width: usize) -> u16 {
    screen.status.as_deref().map_or(1, |m| crate::ui::menu::wrap(m, width, 2).len() as u16)
}

/// The status message if one waits (a question for y), else the pages.
fn footer(screen: &LegioScreen, area: Rect, buf: &mut Buffer) {
    let lines: Vec<Line<'static>> = match &screen.status {
        Some(m) => crate::ui::menu::wrap(m, area.width as usize, 2)
            .into_iter()
            .map(|l| Line::styled(l, ratatui::style::Style::new().fg(ratatui::style::Color::LightRed)))
            .collect(),
        None => vec![Line::styled(format!("Tab: {}   ? rules", PAGES[1..].join(", ")), style::dim())],
    };
    Paragraph::new(lines).render(area, buf);
}

/// Pages 1-3: the Red Nebula with the scores, the commanders, the log.
fn page(screen: &LegioScreen, body: Rect, buf: &mut Buffer) {
    let Some(v) = screen.view() else { return };
    let [main, foot] = Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(body);
    match screen.page {
        1 => {
            let board_lines = board::lines(v, cols(main));
            let h = (board_lines.len() as u16 + 2).min(main.height / 2);
            let [b, s] = Layout::vertical([Constraint::Length(h), Constraint::Fill(1)]).areas(main);
            panel("Red Nebula (border costs in cards)", board_lines, b, buf);
            panel("Scores, Imperator, contacts", scores::lines(v, cols(s)), s, buf);
        }
        2 => {
            let lines = commanders::lines(screen, v, usize::MAX, cols(main));
            panel("Commanders", lines, main, buf);
        }
        _ => log_panel(screen, with_talk(screen, main, buf), buf),
    }
    let next = PAGES[(screen.page + 1) % PAGES.len()];
    Paragraph::new(Line::styled(format!("{}   Tab: {next}", PAGES[screen.page]), style::dim())).render(foot, buf);
}

fn bare(screen: &LegioScreen, body: Rect, buf: &mut Buffer) {
    let [note, rest] = Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(body);
    Paragraph::new(Line::styled(
        format!("no board for {} games in this client: the decision and the log", screen.table.game_type),
        style::dim(),
    ))
    .render(note, buf);
    menu_and_log(screen, rest, buf, body.width >= MIN_WIDTH);
}
