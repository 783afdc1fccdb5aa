//! Which panels fit, and where. From 100x30 up: the status bar; the
//! Nebula beside the commanders; the viewer's hand and objectives beside
//! the scores, Imperator and contacts; the decision menu beside the log.
//! Smaller: the status bar, one line of scores, the hand's card names, the
//! menu and the log. Tiny: a line saying so. Without a VII Legio view (a
//! game the client has no board for): status, menu and log.

use super::model::LegioScreen;
use super::{board, commanders, decision, hand, help, log, names, scores, status};
use crate::ui::clock;
use crate::ui::style;
use legio_engine::Seat;
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

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

fn panel(title: &str, lines: Vec<Line<'static>>, area: Rect, buf: &mut Buffer) {
    Paragraph::new(lines)
        .block(Block::bordered().title(Line::styled(format!(" {title} "), style::title())))
        .render(area, buf);
}

fn rows(r: Rect) -> usize {
    r.height.saturating_sub(2) as usize
}

fn cols(r: Rect) -> usize {
    r.width.saturating_sub(2) as usize
}

/// Renders the screen into `area` of `buf`.
pub fn render(screen: &LegioScreen, area: Rect, buf: &mut Buffer) {
    if area.width < 30 || area.height < 8 {
        Paragraph::new(vec![
            Line::raw("VII Legio: terminal too small"),
            Line::raw(format!("{}x{}, need 100x30", area.width, area.height)),
        ])
        .render(area, buf);
        return;
    }
    let clock_rows = clock::rows(&screen.clocks);
    let [top, clocks, body] =
        Layout::vertical([Constraint::Length(1), Constraint::Length(clock_rows), Constraint::Fill(1)]).areas(area);
    Paragraph::new(status::line(screen)).render(top, buf);
    let mine: Vec<u32> = screen.my_seat.iter().map(|s| u32::from(*s)).collect();
    let name = |s: u32| match screen.table.game_type.as_str() {
        crate::table::LEGIO => names::commander(s as Seat),
        _ => format!("seat {s}"),
    };
    Paragraph::new(clock::line(&screen.clocks, &mine, name)).render(clocks, buf);
    match screen.view() {
        Some(_) if area.width >= MIN_WIDTH && area.height >= MIN_HEIGHT => full(screen, body, buf),
        Some(_) => compact(screen, body, buf),
        None => bare(screen, body, buf),
    }
    if screen.show_help {
        let text = help::lines();
        let w = area.width.min(96);
        let h = area.height.min(text.len() as u16 + 2);
        let r = Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h);
        Clear.render(r, buf);
        panel("Help (? to close)", text, r, buf);
    }
}

fn menu_and_log(screen: &LegioScreen, area: Rect, buf: &mut Buffer, split: bool) {
    let [menu, log_area] = if split {
        Layout::horizontal([Constraint::Percentage(50), Constraint::Fill(1)]).areas(area)
    } else {
        Layout::vertical([Constraint::Percentage(55), Constraint::Fill(1)]).areas(area)
    };
    let hint = if screen.my_turn() { " (Enter sends)" } else { "" };
    let title = if screen.table.outcome.is_some() {
        "Result".to_string()
    } else {
        format!("Decision: {}{hint}", screen.table.decision.kind.replace('_', " "))
    };
    panel(&title, decision::lines(screen, rows(menu), cols(menu)), menu, buf);
    panel("Log (PgUp/PgDn)", log::lines(screen, rows(log_area), cols(log_area)), log_area, buf);
}

fn full(screen: &LegioScreen, body: Rect, buf: &mut Buffer) {
    let Some(v) = screen.view() else { return };
    let board_lines = board::lines(v);
    let ships = v.public.ships.len();
    let want_top = (board_lines.len().max(ships * 4) + 2) as u16;
    let top_h = want_top.min(body.height * 2 / 5);
    let score_lines = scores::lines(v);
    let mid_room = (body.height / 3).max(5);
    let hand_lines = hand::lines(v, usize::from(mid_room - 2));
    let mid_h = ((hand_lines.len().max(score_lines.len()) + 2) as u16).min(mid_room);
    let [top, mid, bottom] =
        Layout::vertical([Constraint::Length(top_h), Constraint::Length(mid_h), Constraint::Fill(1)]).areas(body);
    let [board_area, side] = Layout::horizontal([Constraint::Fill(1), Constraint::Length(SIDE_WIDTH)]).areas(top);
    panel("Red Nebula", board_lines, board_area, buf);
    panel("Commanders", commanders::lines(screen, v, rows(side)), side, buf);
    let [hand_area, score_area] = Layout::horizontal([Constraint::Fill(1), Constraint::Length(SIDE_WIDTH)]).areas(mid);
    let title = match &v.mine {
        Some(m) => format!("Your hand ({}) and objectives", m.hand.len()),
        None => "Hands".to_string(),
    };
    Paragraph::new(hand_lines)
        .wrap(Wrap { trim: false })
        .block(Block::bordered().title(Line::styled(format!(" {title} "), style::title())))
        .render(hand_area, buf);
    panel("Scores, Imperator, contacts", score_lines, score_area, buf);
    menu_and_log(screen, bottom, buf, true);
}

fn compact(screen: &LegioScreen, body: Rect, buf: &mut Buffer) {
    let Some(v) = screen.view() else { return };
    let [note, score_area, hand_area, rest] =
        Layout::vertical([Constraint::Length(1), Constraint::Length(2), Constraint::Length(3), Constraint::Fill(1)])
            .areas(body);
    Paragraph::new(Line::styled(
        format!("{}x{}: enlarge to 100x30 for the board", body.width, body.height + 1),
        style::dim(),
    ))
    .render(note, buf);
    Paragraph::new(scores::lines(v).into_iter().take(2).collect::<Vec<_>>()).render(score_area, buf);
    Paragraph::new(hand::short(v)).wrap(Wrap { trim: true }).render(hand_area, buf);
    menu_and_log(screen, rest, buf, false);
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
