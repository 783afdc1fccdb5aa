//! The keyboard loop's handle on the X-ODUS screen (`tui::Front`): a new
//! state is read as the engine's view, its events as the engine's events
//! (their lines name the systems on the board, their dice fill the dice
//! panel); the map pans with H, J, K, L and 0; the signal keys point at
//! the map (`talk`).

use super::layout::draw;
use super::model::Screen;
use crate::clock::Clocks;
use crate::games::xodus::{events, team_outcome, view};
use crate::hint::Hint;
use crate::seats::SeatHolder;
use crate::table::{Outcome, Table};
use crate::talk::{Audience, SignalStep, Talk};
use crate::tui::Front;
use ratatui::Frame;
use ratatui::crossterm::event::KeyCode;
use tabletop::pb;
use xodus_engine::Seat;

impl Front for Screen {
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
    fn apply(&mut self, table: Table, wire: &[pb::Event], undo: bool) -> Result<(), String> {
        let view = view(&table).cloned().ok_or("lost the view; retrying")?;
        self.set_view(view);
        if undo {
            self.take_back();
        } else {
            self.push_choice(&events(wire));
        }
        Ok(())
    }
    fn replay_log(&mut self, past: &[(bool, Vec<pb::Event>)]) {
        let past: Vec<_> = past.iter().map(|(undo, wire)| (*undo, events(wire))).collect();
        Screen::replay_log(self, &past);
    }
    fn set_ai_seats(&mut self, seats: Vec<Seat>) {
        self.ai_seats = seats;
    }
    fn outcome(&self) -> Option<Outcome> {
        self.view.public.outcome.as_ref().map(team_outcome)
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
    fn talk(&self) -> &Talk {
        &self.talk
    }
    fn talk_mut(&mut self) -> &mut Talk {
        &mut self.talk
    }
    fn hint(&self) -> Option<&Hint> {
        self.hint.as_ref()
    }
    fn set_hint(&mut self, hint: Option<Hint>) {
        self.hint = hint;
    }
    fn talk_audiences(&self) -> Vec<Audience> {
        let others = self.view.public.ships.iter().map(|s| s.seat).filter(|s| !self.my_seats.contains(s));
        [Audience::Table, Audience::Team].into_iter().chain(others.map(Audience::Seat)).collect()
    }
    fn signal_key(&self, keys: &str) -> Option<SignalStep> {
        super::talk::signal_key(self, keys)
    }
}
