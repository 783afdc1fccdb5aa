//! The keyboard loop's handle on the X-ODUS screen (`tui::Front`): a new
//! state is the engine's view, its events are the engine's events; the
//! map pans with H, J, K, L and 0.

use super::layout::draw;
use super::model::Screen;
use crate::clock::Clocks;
use crate::seats::SeatHolder;
use crate::tui::Front;
use ratatui::Frame;
use ratatui::crossterm::event::KeyCode;
use xodus_engine::{Event, Seat, View};

impl Front for Screen {
    type View = View;
    type Event = Event;
    fn draw(&self, frame: &mut Frame) {
        draw(frame, self)
    }
    fn seq(&self) -> u64 {
        self.view.public.seq
    }
    fn chosen(&self) -> Option<(Seat, String, String)> {
        self.selected_option().map(|(seat, o)| (seat, o.id.clone(), o.label.clone()))
    }
    fn undo_seat(&self) -> Option<Seat> {
        self.my_seats.first().copied()
    }
    fn seat_word(&self, seat: Seat) -> String {
        format!("captain {seat}")
    }
    fn my_seats(&self) -> Vec<Seat> {
        self.my_seats.clone()
    }
    fn leave_seats(&mut self, seats: &[Seat]) {
        self.my_seats.retain(|s| !seats.contains(s));
        self.selected = 0;
    }
    fn apply(&mut self, view: View, events: Vec<Event>, undo: bool) {
        self.set_view(view);
        if undo {
            self.take_back();
        } else {
            self.push_choice(&events);
        }
    }
    fn set_seats(&mut self, seats: Vec<SeatHolder>) {
        Screen::set_seats(self, seats)
    }
    fn set_status(&mut self, status: Option<String>) {
        self.status = status;
    }
    fn move_selection(&mut self, delta: isize) {
        Screen::move_selection(self, delta)
    }
    fn select(&mut self, index: usize) {
        Screen::select(self, index);
    }
    fn scroll_log(&mut self, delta: isize) {
        Screen::scroll_log(self, delta)
    }
    fn help_open(&self) -> bool {
        self.show_help
    }
    fn set_help(&mut self, open: bool) {
        self.show_help = open;
    }
    fn clocks_mut(&mut self) -> &mut Clocks {
        &mut self.clocks
    }
    fn note(&mut self, line: String) {
        Screen::note(self, line)
    }
    fn own_key(&mut self, code: KeyCode) -> bool {
        match code {
            KeyCode::Char('H') => self.pan.0 -= 1,
            KeyCode::Char('L') => self.pan.0 += 1,
            KeyCode::Char('K') => self.pan.1 -= 1,
            KeyCode::Char('J') => self.pan.1 += 1,
            KeyCode::Char('0') => self.pan = (0, 0),
            _ => return false,
        }
        true
    }
}
