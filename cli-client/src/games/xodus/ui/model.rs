//! The client-side picture of one game: the last view received, the event
//! log, the last dice roll, which seats this terminal plays, the menu
//! cursor and the table talk. Pure data plus small updates; drawing lives in the panels.

use crate::clock::Clocks;
use crate::hint::Hint;
use crate::seats::{self, Holder, SeatHolder};
use crate::talk::Talk;
use xodus_engine::content::{DieColor, Face};
use xodus_engine::{ChoiceOption, Event, RollPurpose, Seat, View};

/// Lines kept in the event log.
const LOG_CAPACITY: usize = 500;

/// The dice of the most recent roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastRoll {
    /// Who rolled (None: nobody's ship, e.g. the Avatar die).
    pub seat: Option<Seat>,
    /// Why.
    pub purpose: RollPurpose,
    /// Faces shown.
    pub dice: Vec<(DieColor, Face)>,
}

/// Everything the screen shows.
#[derive(Clone, Debug)]
pub struct Screen {
    /// The game's id on the server (shown in the status bar).
    pub game_id: String,
    /// The latest view.
    pub view: View,
    /// Seats played from this terminal (empty: spectator).
    pub my_seats: Vec<Seat>,
    /// Seats played by AI processes (to say who is thinking).
    pub ai_seats: Vec<Seat>,
    /// Who holds each seat, once the server has said (empty until then).
    pub holders: Vec<SeatHolder>,
    /// Event lines, oldest first.
    pub log: Vec<String>,
    /// Where each choice seen on this screen began in the log, newest
    /// last, so that an undo takes its lines out again.
    pub choice_marks: Vec<usize>,
    /// How many lines the log is scrolled up from the bottom.
    pub log_scroll: usize,
    /// The rolls of the most recent choice that rolled dice (a fleet
    /// fight rolls once per ship), for the dice panel.
    pub last_rolls: Vec<LastRoll>,
    /// Cursor in the menu of my options.
    pub selected: usize,
    /// The help overlay is open.
    pub show_help: bool,
    /// A one-line message (a refused choice, a lost connection).
    pub status: Option<String>,
    /// Map panning offset in hex columns and rows.
    pub pan: (i16, i16),
    /// The seats' clocks (empty: an untimed game).
    pub clocks: Clocks,
    /// The table talk heard, and the line being typed.
    pub talk: Talk,
    /// The last hint asked for (its marks shown while it is about the
    /// state shown).
    pub hint: Option<Hint>,
}

impl Screen {
    /// A screen for a view, with nothing logged yet.
    pub fn new(game_id: impl Into<String>, view: View, my_seats: Vec<Seat>) -> Screen {
        Screen {
            game_id: game_id.into(),
            view,
            my_seats,
            ai_seats: Vec::new(),
            holders: Vec::new(),
            log: Vec::new(),
            choice_marks: Vec::new(),
            log_scroll: 0,
            last_rolls: Vec::new(),
            selected: 0,
            show_help: false,
            status: None,
            pan: (0, 0),
            clocks: Clocks::default(),
            talk: Talk::default(),
            hint: None,
        }
    }

    /// Replaces the view; the cursor goes back to the top when the
    /// decision changed.
    pub fn set_view(&mut self, view: View) {
        if view.decision != self.view.decision {
            self.selected = 0;
        }
        self.view = view;
        self.clamp_selection();
    }

    /// Records who holds each seat: the AI seats follow the server's word,
    /// and each change after the first report gets a log line.
    pub fn set_seats(&mut self, seats: Vec<SeatHolder>) {
        if !self.holders.is_empty() {
            let lines = seats::changes(&self.holders, &seats, |s| self.seat_title(s));
            self.log.extend(lines);
        }
        self.ai_seats = seats.iter().filter(|s| s.holder.is_ai()).map(|s| s.seat).collect();
        self.holders = seats;
    }

    /// Who holds `seat`, when the server has said.
    pub fn holder(&self, seat: Seat) -> Option<Holder> {
        self.holders.iter().find(|h| h.seat == seat).map(|h| h.holder)
    }

    /// "captain 2 (Pirate Ship)": a seat and its ship, for log lines.
    fn seat_title(&self, seat: Seat) -> String {
        match self.view.public.ships.iter().find(|s| s.seat == seat) {
            Some(ship) => format!("captain {seat} ({})", xodus_engine::content::Content::get().ship(ship.kind).name),
            None => format!("captain {seat}"),
        }
    }

    /// Logs a choice's events, remembering where they began (see
    /// [`Screen::take_back`]).
    pub fn push_choice(&mut self, events: &[Event]) {
        self.choice_marks.push(self.log.len());
        self.push_events(events);
    }

    /// An undo: the last choice seen here leaves the log (nothing to take
    /// out for a choice made before this screen opened).
    pub fn take_back(&mut self) {
        if let Some(mark) = self.choice_marks.pop() {
            self.log.truncate(mark);
        }
        self.note("took back the last choice");
    }

    /// Records events: one log line each, and the dice of rolls. Call it
    /// after [`Screen::set_view`] with the view after the events: their
    /// lines name the systems on that view's board.
    pub fn push_events(&mut self, events: &[Event]) {
        let mut rolled = false;
        for e in events {
            if let Event::DiceRolled { seat, purpose, dice } = e {
                // The first roll of a batch replaces the rolls shown before.
                if !rolled {
                    self.last_rolls.clear();
                    rolled = true;
                }
                self.last_rolls.push(LastRoll { seat: *seat, purpose: *purpose, dice: dice.clone() });
            }
            self.log.push(xodus_wire::events::log_line(e, Some(&self.view.public)));
        }
        if self.log.len() > LOG_CAPACITY {
            let extra = self.log.len() - LOG_CAPACITY;
            self.log.drain(..extra);
            self.choice_marks.retain_mut(|m| {
                *m = m.saturating_sub(extra);
                *m > 0
            });
        }
    }

    /// Logs a game's past, entry by entry (`true`: an undo, which takes
    /// the last choice's lines out again), as if this screen had seen it.
    pub fn replay_log(&mut self, past: &[(bool, Vec<Event>)]) {
        for (undo, events) in past {
            if *undo {
                if let Some(mark) = self.choice_marks.pop() {
                    self.log.truncate(mark);
                }
            } else {
                self.push_choice(events);
            }
        }
    }

    /// Adds a line of the client's own to the log.
    pub fn note(&mut self, line: impl Into<String>) {
        self.log.push(line.into());
    }

    /// The options this terminal may pick now, with the seat that picks.
    pub fn my_options(&self) -> Vec<(Seat, &ChoiceOption)> {
        self.view
            .decision
            .options
            .iter()
            .filter_map(|o| o.seats.iter().find(|s| self.my_seats.contains(s)).map(|s| (*s, o)))
            .collect()
    }

    /// The option under the cursor, with its seat.
    pub fn selected_option(&self) -> Option<(Seat, &ChoiceOption)> {
        self.my_options().get(self.selected).copied()
    }

    /// Moves the cursor by `delta`, wrapping round.
    pub fn move_selection(&mut self, delta: isize) {
        let n = self.my_options().len() as isize;
        if n > 0 {
            self.selected = (self.selected as isize + delta).rem_euclid(n) as usize;
        }
    }

    /// Puts the cursor on item `index` if it exists.
    pub fn select(&mut self, index: usize) -> bool {
        if index < self.my_options().len() {
            self.selected = index;
            true
        } else {
            false
        }
    }

    fn clamp_selection(&mut self) {
        let n = self.my_options().len();
        if self.selected >= n {
            self.selected = n.saturating_sub(1);
        }
    }

    /// Scrolls the log up (positive) or down (negative).
    pub fn scroll_log(&mut self, delta: isize) {
        let max = self.log.len().saturating_sub(1) as isize;
        self.log_scroll = (self.log_scroll as isize + delta).clamp(0, max) as usize;
    }

    /// Who decides now, in words ("you", "captain 2 (AI)").
    pub fn deciders_text(&self) -> String {
        let d = &self.view.decision.deciders;
        if d.is_empty() {
            return "nobody".into();
        }
        let names: Vec<String> = d.iter().map(|s| self.seat_name(*s)).collect();
        names.join(", ")
    }

    /// When this terminal may take the decision and other seats may too:
    /// who they are, that the first answer counts, and that AI teammates
    /// leave it to a human for a few seconds (`xodus-ai --courtesy-ms`).
    pub fn shared_hint(&self) -> Option<String> {
        let d = &self.view.decision.deciders;
        if !d.iter().any(|s| self.my_seats.contains(s)) {
            return None;
        }
        let others: Vec<Seat> = d.iter().copied().filter(|s| !self.my_seats.contains(s)).collect();
        if others.is_empty() {
            return None;
        }
        let list = |mark_ai: bool| {
            let names: Vec<String> = others
                .iter()
                .map(|s| if mark_ai && self.ai_seats.contains(s) { format!("{s} (AI)") } else { s.to_string() })
                .collect();
            names.join(", ")
        };
        let captains = if others.len() == 1 { "captain" } else { "captains" };
        Some(if others.iter().all(|s| self.ai_seats.contains(s)) {
            format!("shared with AI {captains} {}: they wait a few seconds for you", list(false))
        } else {
            format!("shared with {captains} {}: the first answer counts", list(true))
        })
    }

    /// A seat in words, marking this terminal's and the AI's seats.
    pub fn seat_name(&self, seat: Seat) -> String {
        match self.seat_mark(seat) {
            Some(mark) => format!("captain {seat} ({mark})"),
            None => format!("captain {seat}"),
        }
    }

    /// The mark after a seat's name: "you", "AI", or, once the server has
    /// said who holds the seats, "open", "idle" or "AI for idle" (a seat a
    /// person holds gets none).
    pub fn seat_mark(&self, seat: Seat) -> Option<&'static str> {
        if self.my_seats.contains(&seat) {
            return Some("you");
        }
        match self.holder(seat) {
            Some(Holder::Human) => None,
            Some(h) => Some(h.mark()),
            None if self.ai_seats.contains(&seat) => Some("AI"),
            None => None,
        }
    }

    /// This terminal has something to decide.
    pub fn my_turn(&self) -> bool {
        !self.my_options().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xodus_engine::{Difficulty, Game, GameConfig, Viewer};

    fn screen() -> Screen {
        let game = Game::new(GameConfig::random(7, 3, Difficulty::Casual)).expect("valid config");
        Screen::new("g-test", game.view(Viewer::Spectator), vec![0])
    }

    fn held(holders: [Holder; 3]) -> Vec<SeatHolder> {
        holders.iter().enumerate().map(|(i, h)| SeatHolder { seat: i as Seat, holder: *h }).collect()
    }

    #[test]
    fn the_servers_word_on_the_seats_marks_them_and_logs_each_change() {
        let mut s = screen();
        assert_eq!(s.seat_name(1), "captain 1", "nothing said yet");
        s.set_seats(held([Holder::Human, Holder::Open, Holder::Human]));
        assert!(s.log.is_empty(), "the first report is the starting point, not a change");
        assert_eq!(s.seat_name(0), "captain 0 (you)");
        assert_eq!(s.seat_name(1), "captain 1 (open)");
        assert_eq!(s.seat_name(2), "captain 2", "a person's seat has no mark");

        s.set_seats(held([Holder::Human, Holder::Ai, Holder::Idle]));
        assert_eq!(s.ai_seats, vec![1]);
        assert_eq!(s.seat_name(1), "captain 1 (AI)");
        assert_eq!(s.seat_name(2), "captain 2 (idle)");
        assert_eq!(s.log.len(), 2, "one line per seat that changed: {:?}", s.log);
        assert!(s.log[0].starts_with("captain 1 (") && s.log[0].ends_with(": an AI agent took it"), "{:?}", s.log);
        assert!(s.log[1].ends_with(": its player went idle"), "{:?}", s.log);

        s.set_seats(held([Holder::Human, Holder::Ai, Holder::StandIn]));
        assert_eq!(s.ai_seats, vec![1, 2], "a stand-in is an AI at the helm");
        assert_eq!(s.seat_name(2), "captain 2 (AI for idle)");
    }

    #[test]
    fn an_undo_takes_the_undone_choices_lines_out_of_the_log() {
        let mut s = screen();
        s.push_choice(&[Event::TurnStarted { seat: 0 }]);
        s.push_choice(&[Event::ScrapsChanged { seat: 0, delta: -1, scraps: 0 }, Event::TurnEnded { seat: 0 }]);
        assert_eq!(s.log.len(), 3);
        s.take_back();
        assert_eq!(s.log.len(), 2, "{:?}", s.log);
        assert!(s.log[1].contains("took back"), "{:?}", s.log);
        assert!(!s.log.iter().any(|l| l.contains("scrap")), "the undone choice's lines are gone: {:?}", s.log);
        // A second undo takes the choice before it; with none left that this
        // screen saw, the log only says so.
        s.take_back();
        assert_eq!(s.log, vec!["took back the last choice".to_string()]);
        s.take_back();
        assert_eq!(s.log.len(), 2);
    }

    #[test]
    fn a_resumed_screen_logs_the_past_with_its_last_roll_and_without_undone_choices() {
        let mut s = screen();
        use xodus_engine::content::{DieColor, Face};
        let dice = vec![(DieColor::Red, Face::Hit), (DieColor::Blue, Face::Miss)];
        let roll =
            Event::DiceRolled { seat: Some(1), purpose: xodus_engine::RollPurpose::Detection, dice: dice.clone() };
        s.replay_log(&[
            (false, vec![Event::TurnStarted { seat: 0 }]),
            (false, vec![Event::ScrapsChanged { seat: 0, delta: -1, scraps: 0 }]),
            (true, Vec::new()),
            (false, vec![roll]),
        ]);
        assert_eq!(s.log.len(), 2, "{:?}", s.log);
        assert!(!s.log.iter().any(|l| l.contains("scrap")), "the undone choice is not logged: {:?}", s.log);
        let last = s.last_rolls.last().expect("the dice under decision");
        assert_eq!((last.seat, last.dice.clone()), (Some(1), dice));
    }

    #[test]
    fn every_roll_of_a_fleet_fight_stays_on_show_until_the_next_roll() {
        use xodus_engine::content::{DieColor, Face};
        let mut s = screen();
        let roll = |seat, face| Event::DiceRolled {
            seat: Some(seat),
            purpose: xodus_engine::RollPurpose::Attack,
            dice: vec![(DieColor::Red, face)],
        };
        s.push_choice(&[roll(0, Face::Hit), roll(1, Face::Miss), roll(2, Face::Special)]);
        assert_eq!(s.last_rolls.iter().map(|r| r.seat).collect::<Vec<_>>(), vec![Some(0), Some(1), Some(2)]);
        s.push_choice(&[Event::TurnStarted { seat: 1 }]);
        assert_eq!(s.last_rolls.len(), 3, "a choice without dice keeps the last rolls");
        s.push_choice(&[roll(1, Face::Hit)]);
        assert_eq!(s.last_rolls.len(), 1, "the next roll replaces them");
    }
}
