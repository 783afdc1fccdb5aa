//! The client-side picture of one VII Legio game (or of any game the
//! client has no board for): the last state received (the platform's
//! decision and outcome, and VII Legio's view when readable), the seat
//! this terminal plays, who holds the others, the event log (each
//! `Event.summary`), the menu cursor and the table talk. Pure data plus small updates;
//! drawing lives in the panels.

use super::names;
use crate::clock::Clocks;
use crate::hint::Hint;
use crate::seats::{self, Holder, SeatHolder};
use crate::table::{Offer, Table};
use crate::talk::Talk;
use legio_engine::{Seat, View};

/// Lines kept in the event log.
const LOG_CAPACITY: usize = 500;

/// The pages Tab turns, in order: the table, then the rest in full.
pub const PAGES: [&str; 4] = ["the table", "the Red Nebula and scores", "the commanders", "the log"];

/// Everything the VII Legio screen shows.
#[derive(Clone, Debug)]
pub struct LegioScreen {
    /// The game's id on the server.
    pub game_id: String,
    /// The latest state.
    pub table: Table,
    /// The seat played from this terminal (None: spectator).
    pub my_seat: Option<Seat>,
    /// Seats played by AI processes.
    pub ai_seats: Vec<Seat>,
    /// Who holds each seat, once the server has said.
    pub holders: Vec<SeatHolder>,
    /// Event lines, oldest first.
    pub log: Vec<String>,
    /// Where each choice seen here began in the log, newest last.
    pub choice_marks: Vec<usize>,
    /// How many lines the log is scrolled up from the bottom.
    pub log_scroll: usize,
    /// Cursor in the menu of my options.
    pub selected: usize,
    /// The help overlay is open.
    pub show_help: bool,
    /// The page shown (an index of [`PAGES`]).
    pub page: usize,
    /// A one-line message (a refused choice, a lost connection).
    pub status: Option<String>,
    /// The seats' clocks (the latest state's, and the game's rules).
    pub clocks: Clocks,
    /// The table talk heard, and the line being typed.
    pub talk: Talk,
    /// The last hint asked for (its marks shown while it is about the
    /// state shown).
    pub hint: Option<Hint>,
}

impl LegioScreen {
    /// A screen for a state, with nothing logged yet.
    pub fn new(game_id: impl Into<String>, table: Table, my_seat: Option<Seat>) -> LegioScreen {
        let mut clocks = Clocks::default();
        clocks.seats = table.clocks.clone();
        LegioScreen {
            game_id: game_id.into(),
            table,
            my_seat,
            ai_seats: Vec::new(),
            holders: Vec::new(),
            log: Vec::new(),
            choice_marks: Vec::new(),
            log_scroll: 0,
            selected: 0,
            show_help: false,
            page: 0,
            clocks,
            status: None,
            talk: Talk::default(),
            hint: None,
        }
    }

    /// The VII Legio view, when the state is one this client reads.
    pub fn view(&self) -> Option<&View> {
        crate::games::legio::view(&self.table)
    }

    /// Replaces the state; the cursor goes back to the top when the
    /// decision changed.
    pub fn set_table(&mut self, mut table: Table) {
        // A streamed state comes without the live summary: a spectator's
        // delay (the policy's, fixed while the game is live) carries over.
        if table.behind.is_none() && table.viewer_seat.is_none() && table.outcome.is_none() {
            table.behind = self.table.behind;
        }
        if table.decision != self.table.decision {
            self.selected = 0;
        }
        // A state without clocks (the stream's first snapshot) keeps the
        // clocks already shown: a timed game's states all have some.
        if !table.clocks.is_empty() {
            self.clocks.seats = table.clocks.clone();
        }
        self.table = table;
        let n = self.my_options().len();
        if self.selected >= n {
            self.selected = n.saturating_sub(1);
        }
    }

    /// Logs a choice's lines, remembering where they began.
    pub fn push_choice(&mut self, lines: Vec<String>) {
        self.choice_marks.push(self.log.len());
        self.log.extend(lines);
        if self.log.len() > LOG_CAPACITY {
            let extra = self.log.len() - LOG_CAPACITY;
            self.log.drain(..extra);
            self.choice_marks.retain_mut(|m| {
                *m = m.saturating_sub(extra);
                *m > 0
            });
        }
    }

    /// Logs a game's past (a resumed game): each entry's lines, an undo
    /// taking back the entry before it.
    pub fn replay_log(&mut self, past: Vec<(bool, Vec<String>)>) {
        for (undo, lines) in past {
            if undo {
                if let Some(mark) = self.choice_marks.pop() {
                    self.log.truncate(mark);
                }
            } else {
                self.push_choice(lines);
            }
        }
    }

    /// An undo: the last choice seen here leaves the log.
    pub fn take_back(&mut self) {
        if let Some(mark) = self.choice_marks.pop() {
            self.log.truncate(mark);
        }
        self.log.push("took back the last choice".into());
    }

    /// Adds a line of the client's own to the log.
    pub fn note(&mut self, line: impl Into<String>) {
        self.log.push(line.into());
    }

    /// Records who holds each seat; each change after the first report
    /// gets a log line.
    pub fn set_seats(&mut self, seats: Vec<SeatHolder>) {
        if !self.holders.is_empty() {
            let lines = seats::changes(&self.holders, &seats, names::commander);
            self.log.extend(lines);
        }
        self.ai_seats = seats.iter().filter(|s| s.holder.is_ai()).map(|s| s.seat).collect();
        self.holders = seats;
    }

    /// The options this terminal may pick now.
    pub fn my_options(&self) -> Vec<&Offer> {
        match self.my_seat {
            Some(seat) => self.table.decision.options_for(u32::from(seat)),
            None => Vec::new(),
        }
    }

    /// Moves the cursor by `delta`, wrapping round.
    pub fn move_selection(&mut self, delta: isize) {
        let n = self.my_options().len() as isize;
        if n > 0 {
            self.selected = (self.selected as isize + delta).rem_euclid(n) as usize;
        }
    }

    /// Scrolls the log up (positive) or down (negative).
    pub fn scroll_log(&mut self, delta: isize) {
        let max = self.log.len().saturating_sub(1) as isize;
        self.log_scroll = (self.log_scroll as isize + delta).clamp(0, max) as usize;
    }

    /// "Commander 3 (AI)", "Commander 1 (you)" (seats 2 and 0).
    pub fn seat_name(&self, seat: Seat) -> String {
        let mark = if self.my_seat == Some(seat) {
            Some("you")
        } else {
            match self.holders.iter().find(|h| h.seat == seat).map(|h| h.holder) {
                Some(Holder::Human) => None,
                Some(h) => Some(h.mark()),
                None if self.ai_seats.contains(&seat) => Some("AI"),
                None => None,
            }
        };
        match mark {
            Some(m) => format!("{} ({m})", names::commander(seat)),
            None => names::commander(seat),
        }
    }

    /// Who decides now, in words.
    pub fn deciders_text(&self) -> String {
        let d = &self.table.decision.deciders;
        if d.is_empty() {
            return "nobody".into();
        }
        d.iter().map(|s| self.seat_name(*s as Seat)).collect::<Vec<_>>().join(", ")
    }

    /// The price of the option under the cursor, when the server sent it.
    pub fn selected_price(&self) -> Option<tabletop::legio_pb::Price> {
        let offer = self.my_options().into_iter().nth(self.selected)?;
        offer.detail.as_ref()?.unpack::<tabletop::legio_pb::LegioChoice>()?.price
    }

    /// The question to ask before sending the option under the cursor,
    /// when it spends cards the player did not pick (the whole hand) or
    /// costs PC: "This spends your whole hand (2 cards: Reef Shelf, Xeno
    /// Skiff). Send it?".
    pub fn confirm_question(&self) -> Option<String> {
        let price = self.selected_price()?;
        let hand: Vec<&str> = self
            .view()
            .and_then(|v| v.mine.as_ref())
            .map(|m| m.hand.iter().map(|c| names::card(*c)).collect())
            .unwrap_or_default();
        let cards = if hand.is_empty() { String::new() } else { format!(": {}", hand.join(", ")) };
        let n = |k: u32| if k == 1 { "1 card".to_string() } else { format!("{k} cards") };
        if price.pc < 0 {
            return Some(format!(
                "{} left in hand{cards} cost {} PC. End your turn? y: yes, any other key: no",
                n(price.cards),
                -price.pc
            ));
        }
        // Paying with the last card is picking it: nothing to ask.
        if price.whole_hand && price.cards > 1 {
            return Some(format!(
                "This spends your whole hand ({}{cards}). Go ahead? y: yes, any other key: no",
                n(price.cards)
            ));
        }
        None
    }

    /// How many choices the state shown is behind the live game (a
    /// delayed spectator), None when live.
    pub fn behind(&self) -> Option<u64> {
        self.table.behind
    }

    /// This terminal has something to decide.
    pub fn my_turn(&self) -> bool {
        !self.my_options().is_empty()
    }
}
