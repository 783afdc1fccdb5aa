//! The keyboard loop's handle on the VII Legio screen, the table screen
//! (`tui::Front`): a new state is a [`Table`], its events are logged as
//! the server's summary lines; Tab turns the pages; the signal keys are
//! `talk`'s.

use super::layout::draw;
use super::model::{LegioScreen, PAGES};
use crate::clock::Clocks;
use crate::hint::Hint;
use crate::seats::SeatHolder;
use crate::table::{Outcome, Table, event_line};
use crate::talk::{Audience, SignalStep, Talk};
use crate::tui::Front;
use legio_engine::Seat;
use ratatui::Frame;
use ratatui::crossterm::event::KeyCode;
use tabletop::pb;

impl Front for LegioScreen {
    fn draw(&self, frame: &mut Frame) {
        draw(frame, self)
    }
    fn seq(&self) -> u64 {
        self.table.seq
    }
    fn chosen(&self) -> Option<(Seat, String, String)> {
        let seat = self.my_seat?;
        self.my_options().get(self.selected).map(|o| (seat, o.id.clone(), o.label.clone()))
    }
    fn confirm_question(&self) -> Option<String> {
        LegioScreen::confirm_question(self)
    }
    fn seat_word(&self, seat: Seat) -> String {
        super::names::commander(seat)
    }
    fn undo_seat(&self) -> Option<Seat> {
        self.my_seat
    }
    fn my_seats(&self) -> Vec<Seat> {
        self.my_seat.into_iter().collect()
    }
    fn leave_seats(&mut self, seats: &[Seat]) {
        if self.my_seat.is_some_and(|s| seats.contains(&s)) {
            self.my_seat = None;
            self.selected = 0;
        }
    }
    fn apply(&mut self, table: Table, events: &[pb::Event], undo: bool) -> Result<(), String> {
        self.set_table(table);
        if undo {
            self.take_back();
        } else {
            self.push_choice(events.iter().map(event_line).collect());
        }
        Ok(())
    }
    fn replay_log(&mut self, past: &[(bool, Vec<pb::Event>)]) {
        let lines = past.iter().map(|(undo, events)| (*undo, events.iter().map(|e| e.summary.clone()).collect()));
        LegioScreen::replay_log(self, lines.collect());
    }
    fn set_ai_seats(&mut self, seats: Vec<Seat>) {
        self.ai_seats = seats;
    }
    fn outcome(&self) -> Option<Outcome> {
        self.table.outcome.clone()
    }
    fn clocks_mut(&mut self) -> &mut Clocks {
        &mut self.clocks
    }
    fn note(&mut self, line: String) {
        LegioScreen::note(self, line)
    }
    fn set_seats(&mut self, seats: Vec<SeatHolder>) {
        LegioScreen::set_seats(self, seats)
    }
    fn set_status(&mut self, status: Option<String>) {
        self.status = status;
    }
    fn move_selection(&mut self, delta: isize) {
        LegioScreen::move_selection(self, delta)
    }
    fn select(&mut self, index: usize) {
        if index < self.my_options().len() {
            self.selected = index;
        }
    }
    fn scroll_log(&mut self, delta: isize) {
        LegioScreen::scroll_log(self, delta)
    }
    fn own_key(&mut self, code: KeyCode) -> bool {
        match code {
            KeyCode::Tab => self.page = (self.page + 1) % PAGES.len(),
            KeyCode::BackTab => self.page = (self.page + PAGES.len() - 1) % PAGES.len(),
            _ => return false,
        }
        true
    }
    fn help_open(&self) -> bool {
        self.show_help
    }
    fn set_help(&mut self, open: bool) {
        self.show_help = open;
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
        // A competitive game: no team, the table or one commander.
        let seats = self.view().map_or(self.holders.len(), |v| v.counts.hands.len());
        let others = (0..seats).filter_map(|s| Seat::try_from(s).ok()).filter(|s| self.my_seat != Some(*s));
        std::iter::once(Audience::Table).chain(others.map(Audience::Seat)).collect()
    }
    fn signal_key(&self, keys: &str) -> Option<SignalStep> {
        super::talk::signal_key(self, keys)
    }
}
