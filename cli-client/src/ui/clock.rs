//! The clocks line under the status bar, for a game with turn clocks:
//! every seat's time left ("m:ss"), the running clock counting down from
//! its deadline, seats out of time or forfeited marked, and this
//! terminal's own clock highlighted when its time is low.

use super::style;
use crate::clock::Clocks;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

/// The clocks line, each seat named by `name`; `mine` are this terminal's
/// seats. Empty when the game has no clock.
pub fn line(clocks: &Clocks, mine: &[u32], name: impl Fn(u32) -> String) -> Line<'static> {
    if !clocks.shown() {
        return Line::default();
    }
    let now = clocks.now_ms();
    let mut spans = vec![Span::styled(" clocks ", style::dim())];
    for c in &clocks.seats {
        let left = crate::clock::mmss(c.left_ms(now));
        let (text, st) = if c.forfeited {
            (format!("{left} FORFEITED"), Style::new().fg(Color::LightRed))
        } else if c.out(now) {
            (format!("{left} OUT"), Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD))
        } else if mine.contains(&c.seat) && clocks.low(c) {
            (format!("{left} LOW"), Style::new().fg(Color::Black).bg(Color::LightRed).add_modifier(Modifier::BOLD))
        } else if c.running {
            (left, Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD))
        } else {
            (left, Style::new())
        };
        // A seat that ran out before (and has time again) keeps a mark.
        let text = if c.ran_out_before(now) { format!("{text} (ran out)") } else { text };
        let mark = if c.running { "▶" } else { " " };
        spans.push(Span::raw(format!(" {} {mark}", name(c.seat))));
        spans.push(Span::styled(text, st));
        spans.push(Span::raw(" "));
    }
    if let Some(r) = clocks.rules {
        spans.push(Span::styled(format!(" {}", r.words()), style::dim()));
    }
    Line::from(spans)
}

/// Rows the clocks line takes: 1 for a game with clocks, else 0.
pub fn rows(clocks: &Clocks) -> u16 {
    u16::from(clocks.shown())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use tabletop::pb;

    /// A state as the server sends it for a per-move game of three seats:
    /// seat 1's clock runs (deadline 1,000,030 s), seat 2 ran out.
    fn timed_state() -> pb::GameState {
        let clock = |seat: u32, remaining_ms: i64, running: bool, timed_out: bool| {
            let mut c = pb::SeatClock { seat, remaining_ms, running, timed_out, ..Default::default() };
            if running {
                let mut deadline = c.deadline.take().unwrap_or_default();
                deadline.seconds = 1_000_030;
                c.deadline = Some(deadline);
            }
            c
        };
        pb::GameState {
            game_id: "g-clock".into(),
            seq: 3,
            game_type: "high_card".into(),
            clocks: vec![clock(0, 30_000, false, false), clock(1, 30_000, true, false), clock(2, 0, false, true)],
            ..Default::default()
        }
    }

    fn xodus_view() -> xodus_engine::View {
        use xodus_engine::{Difficulty, Game, GameConfig, Viewer};
        let game = Game::new(GameConfig::random(7, 3, Difficulty::Casual)).expect("valid config");
        game.view(Viewer::Spectator)
    }

    fn text(line: &Line) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    fn clocks_at(now_ms: i64) -> Clocks {
        let table = crate::games::read(&timed_state());
        let mut c = Clocks::new(crate::clock::ClockRules::parse("per-move:30").ok(), table.clocks);
        c.fixed_now_ms = Some(now_ms);
        c
    }

    #[test]
    fn the_clock_line_shows_every_seat_from_a_state_with_clocks() {
        let l = text(&line(&clocks_at(1_000_000_000), &[], |s| format!("seat {s}")));
        assert!(l.contains("seat 0  0:30"), "{l}");
        assert!(l.contains("seat 1 ▶0:30"), "the running clock is marked: {l}");
        assert!(l.contains("seat 2  0:00 OUT"), "out of time: {l}");
        assert!(l.contains("per move 0:30"), "{l}");
        assert_eq!(text(&line(&Clocks::default(), &[], |s| s.to_string())), "", "no clock, no line");
        assert_eq!(rows(&Clocks::default()), 0);
    }

    #[test]
    fn the_running_clock_counts_down_with_the_time_now() {
        let at = |ms| text(&line(&clocks_at(ms), &[], |s| format!("seat {s}")));
        assert!(at(1_000_008_000).contains("seat 1 ▶0:22"), "{}", at(1_000_008_000));
        assert!(at(1_000_029_500).contains("seat 1 ▶0:01"), "{}", at(1_000_029_500));
        assert!(at(1_000_031_000).contains("seat 1 ▶0:00 OUT"), "{}", at(1_000_031_000));
        assert!(at(1_000_031_000).contains("seat 0  0:30"), "a stopped clock keeps its time");
    }

    #[test]
    fn low_time_on_this_terminals_clock_is_highlighted() {
        let low = clocks_at(1_000_020_000);
        let mine = line(&low, &[1], |s| format!("seat {s}"));
        let span = mine.spans.iter().find(|s| s.content.contains("0:10")).expect("seat 1's time");
        assert!(span.content.contains("LOW"), "{}", text(&mine));
        assert_eq!(span.style.bg, Some(Color::LightRed));
        let theirs = line(&low, &[0], |s| format!("seat {s}"));
        assert!(!text(&theirs).contains("LOW"), "another seat's low time is not yours: {}", text(&theirs));
        let fine = line(&clocks_at(1_000_000_000), &[1], |s| format!("seat {s}"));
        assert!(!text(&fine).contains("LOW"), "{}", text(&fine));
    }

    #[test]
    fn both_screens_draw_the_clock_line_under_the_status_bar() {
        let table = crate::games::read(&timed_state());
        let mut legio = crate::games::legio::ui::LegioScreen::new("g-clock", table, Some(1));
        legio.clocks.fixed_now_ms = Some(1_000_020_000);
        let mut backend = ratatui::buffer::Buffer::empty(Rect::new(0, 0, 100, 30));
        crate::games::legio::ui::render(&legio, backend.area, &mut backend);
        let row: String = (0..100).map(|x| backend[(x, 1)].symbol().to_string()).collect();
        assert!(row.contains("seat 1 ▶0:10 LOW"), "{row}");
        let mut xodus = crate::games::xodus::ui::Screen::new("g-clock", xodus_view(), vec![0]);
        xodus.clocks = clocks_at(1_000_008_000);
        let mut buf = ratatui::buffer::Buffer::empty(Rect::new(0, 0, 100, 30));
        crate::games::xodus::ui::render(&xodus, buf.area, &mut buf);
        let row: String = (0..100).map(|x| buf[(x, 1)].symbol().to_string()).collect();
        assert!(row.contains("captain 1 ▶0:22"), "{row}");
        assert!(row.contains("captain 2  0:00 OUT"), "{row}");
    }
}
