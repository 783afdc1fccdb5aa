//! The interactive loop: draws a screen (any [`Front`]: X-ODUS's
//! [`Screen`], VII Legio's), reads the keyboard, and exchanges messages
//! with whatever feeds it (the gRPC session in the binary, an in-process
//! engine in the example). It owns the terminal between `ratatui::init`
//! and `ratatui::restore`, so a panic or an error still leaves the
//! terminal usable. Keys every screen shares live here: the menu's, talk
//! (T, the game's signal keys), the hint key (B) and the mute key (Z then
//! a seat's number).

use crate::clock::{self, ClockRules, Clocks, SeatClock, played_by_line};
use crate::hint::{HINT_KEY, Hint, MARK, MUTE_KEY};
use crate::seats::{Seat, SeatHolder};
use crate::table::{Outcome, Table};
use crate::talk::{Audience, Draft, Heard, Saying, SignalStep, Talk};
use ratatui::Frame;
use ratatui::crossterm::event::{self, Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::Duration;
use tabletop::pb;

/// What the loop needs of a screen (each game's screen is one).
pub trait Front: Send {
    /// Draws the whole screen.
    fn draw(&self, frame: &mut Frame);
    /// The sequence number of the state shown.
    fn seq(&self) -> u64;
    /// The option under the cursor: the seat that picks it, its id and label.
    fn chosen(&self) -> Option<(Seat, String, String)>;
    /// A question to ask before sending the option under the cursor (it
    /// spends what the player did not pick), or None to send it at once.
    fn confirm_question(&self) -> Option<String> {
        None
    }
    /// A seat as this game names it where people read it ("captain 2",
    /// "Commander 3").
    fn seat_word(&self, seat: Seat) -> String {
        format!("seat {seat}")
    }
    /// The seat an undo is asked for.
    fn undo_seat(&self) -> Option<Seat>;
    /// The seats this terminal plays.
    fn my_seats(&self) -> Vec<Seat>;
    /// This terminal gave `seats` back: it stops playing them (and goes
    /// on watching).
    fn leave_seats(&mut self, seats: &[Seat]);
    /// Shows a newer state and logs the events that led to it (or takes
    /// back the last choice's lines, for an undo). An error, in words for
    /// the status line, when the state is not one this screen reads: it
    /// keeps the last.
    fn apply(&mut self, table: Table, events: &[pb::Event], undo: bool) -> Result<(), String>;
    /// Logs a game's past when the screen opens on a game in progress:
    /// for each history entry, whether it is an undo (which takes the
    /// last choice's lines out again), and its events.
    fn replay_log(&mut self, past: &[(bool, Vec<pb::Event>)]);
    /// The seats played by AI processes (to say who is thinking).
    fn set_ai_seats(&mut self, seats: Vec<Seat>);
    /// How the game ended, once it has.
    fn outcome(&self) -> Option<Outcome>;
    /// Who holds each seat now.
    fn set_seats(&mut self, seats: Vec<SeatHolder>);
    /// The one-line message (None clears it).
    fn set_status(&mut self, status: Option<String>);
    /// Moves the menu cursor.
    fn move_selection(&mut self, delta: isize);
    /// Puts the cursor on item `index` if it exists.
    fn select(&mut self, index: usize);
    /// Scrolls the log up (positive) or down.
    fn scroll_log(&mut self, delta: isize);
    /// The help overlay is open.
    fn help_open(&self) -> bool;
    /// Opens or closes the help overlay.
    fn set_help(&mut self, open: bool);
    /// The seats' clocks shown on this screen.
    fn clocks_mut(&mut self) -> &mut Clocks;
    /// Adds a line of the client's own to the log.
    fn note(&mut self, line: String);
    /// A key of this screen's own (e.g. panning a map); true if used.
    fn own_key(&mut self, _code: KeyCode) -> bool {
        false
    }
    /// The table talk shown on this screen.
    fn talk(&self) -> &Talk;
    /// The table talk, to add lines heard and type one.
    fn talk_mut(&mut self) -> &mut Talk;
    /// Whom a line may be said to, in the order Tab turns them (the
    /// table first).
    fn talk_audiences(&self) -> Vec<Audience> {
        vec![Audience::Table]
    }
    /// The game's signal for a signal key, or for the keys so far of one
    /// that asks for another ("I" then "k"); None when `keys` starts no
    /// signal of this game.
    fn signal_key(&self, _keys: &str) -> Option<SignalStep> {
        None
    }
    /// The hint shown (the menu marks its options while it is about the
    /// state shown).
    fn hint(&self) -> Option<&Hint>;
    /// Shows a hint (None takes it away).
    fn set_hint(&mut self, hint: Option<Hint>);
}

/// What the feeding side tells the screen.
#[derive(Debug)]
pub enum Update {
    /// A newer state, with the events that led to it.
    State {
        /// The state.
        table: Box<Table>,
        /// Events since the previous state.
        events: Vec<pb::Event>,
        /// The step took back the last choice (an undo).
        undo: bool,
    },
    /// Who holds each seat now (the first report, then each change).
    Seats(Vec<SeatHolder>),
    /// Every seat's clock, as of the latest state.
    Clocks(Vec<SeatClock>),
    /// The game's clock rules (from its summary).
    ClockRules(ClockRules),
    /// The seat's last choice was made by someone else than its holder
    /// (`tabletop.v1.PlayedBy`: an AI standing in, the server when its
    /// time ran out): a line for the log, naming the seat as the screen
    /// does.
    PlayedBy(Seat, i32),
    /// These seats were given back: the screen stops playing them.
    Left(Vec<Seat>),
    /// A line for the log (a refused choice, a reconnection).
    Notice(String),
    /// Table talk heard, in talk_seq order.
    Talk(Vec<Heard>),
    /// A line said was refused: the server's words, for the status line
    /// (a choice on its way is still on its way).
    TalkRefused(String),
    /// The hint asked for (shown while the state is the one it is about).
    Hint(Hint),
    /// No hint, and why, in a player's words (for the status line).
    HintRefused(String),
    /// The seats this terminal's seat does not hear now (after a mute).
    Muted(Vec<Seat>),
    /// The feed is over (connection lost); the screen stays until `q`.
    Closed(String),
    /// Close the screen now (the process was asked to stop).
    Quit,
}

/// What the person asks the server for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Pick this option id.
    Choose(String),
    /// Take back this terminal's last choice.
    Undo,
    /// Give back every seat of this terminal and go on watching.
    Leave,
    /// Say a line at the table.
    Say(Saying),
    /// Ask the AI agent serving hints for this seat's best options.
    Hint,
    /// Stop (`muted`) or resume hearing `seat`.
    Mute {
        /// The seat not heard (or heard again).
        seat: Seat,
        /// True to stop hearing it.
        muted: bool,
    },
}

/// A request the person made, as one of this terminal's seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submit {
    /// The seat choosing (for an undo: the first of this terminal's seats;
    /// the sender tries the others; for a leave: the first of them, the
    /// sender gives back them all).
    pub seat: Seat,
    /// What is asked.
    pub request: Request,
    /// The sequence number of the state shown when it was asked.
    pub expect_seq: u64,
}

/// What waits for a yes (the key y) before it is sent.
enum Confirm {
    /// Giving every seat of this terminal back.
    Leave,
    /// A choice that spends what the player did not pick, with its label.
    Choose(Submit, String),
}

/// What a key asks for.
enum Action {
    None,
    Quit,
    Send,
    Undo,
    Leave,
    Hint,
}

/// What the talk keys made of a key.
#[derive(Debug, PartialEq, Eq)]
enum TalkKey {
    /// Not a talk key: the other keys have it.
    NotMine,
    /// Used (typing, a question for the next key, a refusal).
    Used,
    /// A line to say, or a seat to mute.
    Send(Submit),
}

/// The talk keys: T opens the talk line (then every key types, Tab turns
/// whom it is for, Enter says it, Esc drops it), the game's signal keys
/// (some ask for one more key) and Z then a seat's number (mute it, or
/// hear it again). `chord` holds a signal's (or Z's) keys so far.
fn talk_key<F: Front + ?Sized>(screen: &mut F, chord: &mut Option<String>, key: KeyEvent) -> TalkKey {
    if key.kind != KeyEventKind::Press || key.modifiers.contains(KeyModifiers::CONTROL) {
        return TalkKey::NotMine;
    }
    let speaker = screen.my_seats().first().copied();
    if screen.talk().draft.is_some() {
        let audiences = screen.talk_audiences();
        let Some(draft) = screen.talk_mut().draft.as_mut() else { return TalkKey::Used };
        match key.code {
            KeyCode::Char(c) => draft.push(c),
            KeyCode::Backspace => {
                draft.text.pop();
            }
            KeyCode::Tab => draft.next_audience(&audiences),
            KeyCode::Esc => screen.talk_mut().draft = None,
            KeyCode::Enter => {
                let Some(d) = screen.talk_mut().draft.take() else { return TalkKey::Used };
                let text = d.text.trim().to_string();
                if text.is_empty() {
                    return TalkKey::Used;
                }
                let Some(seat) = speaker else {
                    screen.set_status(Some("you hold no seat here: spectators cannot talk".into()));
                    return TalkKey::Used;
                };
                let saying = Saying { audience: d.audience, text, signal: None };
                return TalkKey::Send(Submit { seat, request: Request::Say(saying), expect_seq: screen.seq() });
            }
            _ => {}
        }
        return TalkKey::Used;
    }
    let KeyCode::Char(c) = key.code else {
        if let Some(keys) = chord.take() {
            let none = if keys.starts_with(MUTE_KEY) { "nobody muted" } else { "no signal given" };
            screen.set_status(Some(none.into()));
            return TalkKey::Used;
        }
        return TalkKey::NotMine;
    };
    let keys = match chord.take() {
        Some(keys) if keys.starts_with(MUTE_KEY) => return mute_key(screen, c),
        None if c == MUTE_KEY => {
            match speaker {
                None => screen.set_status(Some("you hold no seat here: spectators hear every seat".into())),
                Some(_) => {
                    screen.set_status(Some(mute_question(screen)));
                    *chord = Some(MUTE_KEY.to_string());
                }
            }
            return TalkKey::Used;
        }
        Some(mut keys) => {
            keys.push(c);
            keys
        }
        None if c == 'T' => {
            if speaker.is_none() {
                screen.set_status(Some("you hold no seat here: spectators cannot talk".into()));
            } else {
                screen.talk_mut().draft = Some(Draft::default());
            }
            return TalkKey::Used;
        }
        None => c.to_string(),
    };
    let step = screen.signal_key(&keys);
    let first = keys.chars().count() == 1;
    match step {
        None if first => TalkKey::NotMine,
        None => {
            screen.set_status(Some("no signal given".into()));
            TalkKey::Used
        }
        Some(_) if speaker.is_none() => {
            screen.set_status(Some("you hold no seat here: spectators cannot signal".into()));
            TalkKey::Used
        }
        Some(SignalStep::More(question)) => {
            screen.set_status(Some(question));
            *chord = Some(keys);
            TalkKey::Used
        }
        Some(SignalStep::Refuse(why)) => {
            screen.set_status(Some(why));
            TalkKey::Used
        }
        Some(SignalStep::Send(signal, words)) => {
            screen.set_status(Some(format!("signalled: {words}")));
            let saying = Saying { audience: Audience::Table, text: String::new(), signal: Some(signal) };
            let seat = speaker.unwrap_or_default();
            TalkKey::Send(Submit { seat, request: Request::Say(saying), expect_seq: screen.seq() })
        }
    }
}

/// The seats this terminal may mute (the other seats), each with the
/// number its name shows ("captain 2": 2, "Commander 3": 3).
fn mutable_seats<F: Front + ?Sized>(screen: &F) -> Vec<(Seat, String)> {
    let mine = screen.my_seats();
    let seats = screen.talk_audiences().into_iter().filter_map(|a| match a {
        Audience::Seat(s) if !mine.contains(&s) => Some(s),
        _ => None,
    });
    seats
        .map(|s| {
            let word = screen.seat_word(s);
            let number = word.rsplit(' ').next().unwrap_or_default().to_string();
            (s, number)
        })
        .collect()
}

/// "Mute whom? 1 captain 1, 2 captain 2 (muted: hear again) (other: none)".
fn mute_question<F: Front + ?Sized>(screen: &F) -> String {
    let muted = &screen.talk().muted;
    let list: Vec<String> = mutable_seats(screen)
        .into_iter()
        .map(|(s, n)| {
            let word = screen.seat_word(s);
            if muted.contains(&s) { format!("{n} {word} (muted: hear again)") } else { format!("{n} {word}") }
        })
        .collect();
    format!("Mute whom? {} (other: none)", list.join(", "))
}

/// The key after Z: the seat whose number it is is muted, or heard again
/// if muted.
fn mute_key<F: Front + ?Sized>(screen: &mut F, c: char) -> TalkKey {
    let Some(me) = screen.my_seats().first().copied() else { return TalkKey::Used };
    let key = c.to_string();
    let Some((seat, _)) = mutable_seats(screen).into_iter().find(|(_, n)| *n == key) else {
        screen.set_status(Some("nobody muted".into()));
        return TalkKey::Used;
    };
    let muted = !screen.talk().muted.contains(&seat);
    let word = screen.seat_word(seat);
    let doing = if muted { format!("muting {word}") } else { format!("hearing {word} again") };
    screen.set_status(Some(doing));
    TalkKey::Send(Submit { seat: me, request: Request::Mute { seat, muted }, expect_seq: screen.seq() })
}

/// The hint key's request: for the seat of the option under the cursor
/// (else this terminal's first seat); None for a spectator, with the
/// status line saying why.
fn hint_request<F: Front + ?Sized>(screen: &mut F) -> Option<Submit> {
    let seat = screen.chosen().map(|(s, ..)| s).or_else(|| screen.my_seats().first().copied());
    let Some(seat) = seat else {
        screen.set_status(Some("you hold no seat here: a hint is for a seat's own decision".into()));
        return None;
    };
    screen.set_status(Some("asking the AI for a hint...".into()));
    Some(Submit { seat, request: Request::Hint, expect_seq: screen.seq() })
}

/// A hint came: shown if the state is still the one it is about.
fn hint_arrived<F: Front + ?Sized>(screen: &mut F, hint: Hint) {
    if !hint.current(screen.seq()) {
        screen.set_status(Some(format!("the game moved on before the hint came: {HINT_KEY} asks again")));
        return;
    }
    let best = hint.options.first().map_or_else(String::new, |a| format!(": best {MARK}1 {}", a.label));
    screen.set_status(Some(format!("hint{best} ({MARK} marks the menu)")));
    screen.set_hint(Some(hint));
}

/// Takes the hint away once the state shown moved past its seq.
fn drop_stale_hint<F: Front + ?Sized>(screen: &mut F) {
    if screen.hint().is_some_and(|h| !h.current(screen.seq())) {
        screen.set_hint(None);
    }
}

/// The seats not heard now, in the status line.
fn muted_line<F: Front + ?Sized>(screen: &F, muted: &[Seat]) -> String {
    if muted.is_empty() {
        return "you hear every seat".into();
    }
    format!("not hearing {} ({MUTE_KEY} then its number: hear again)", seat_list(screen, muted))
}

fn on_key<F: Front + ?Sized>(screen: &mut F, key: KeyEvent) -> Action {
    if key.kind != KeyEventKind::Press {
        return Action::None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return Action::Quit;
    }
    if screen.own_key(key.code) {
        return Action::None;
    }
    match key.code {
        KeyCode::Esc if screen.help_open() => screen.set_help(false),
        KeyCode::Char('q') | KeyCode::Esc => return Action::Quit,
        KeyCode::Char('?') => screen.set_help(!screen.help_open()),
        KeyCode::Up | KeyCode::Char('k') => screen.move_selection(-1),
        KeyCode::Down | KeyCode::Char('j') => screen.move_selection(1),
        KeyCode::PageUp => screen.scroll_log(5),
        KeyCode::PageDown => screen.scroll_log(-5),
        KeyCode::Char(c) if crate::ui::menu::index_of(c).is_some() => {
            screen.select(crate::ui::menu::index_of(c).unwrap_or_default())
        }
        KeyCode::Enter => return Action::Send,
        KeyCode::Char('u') => return Action::Undo,
        KeyCode::Char('x') => return Action::Leave,
        KeyCode::Char(HINT_KEY) => return Action::Hint,
        _ => {}
    }
    Action::None
}

/// "captain 0", "captain 0 and captain 2": the seats as the game names them.
fn seat_list<F: Front + ?Sized>(screen: &F, seats: &[Seat]) -> String {
    let list: Vec<String> = seats.iter().map(|s| screen.seat_word(*s)).collect();
    list.join(" and ")
}

/// The question asked before leaving.
fn leave_question<F: Front + ?Sized>(screen: &F, seats: &[Seat]) -> String {
    format!(
        "Leave {}? It opens for anyone; you go on watching. y: leave, any other key: stay",
        seat_list(screen, seats)
    )
}

/// The line once the seats were given back.
fn left_line<F: Front + ?Sized>(screen: &F, seats: &[Seat]) -> String {
    format!("you left {}: watching now (q quits)", seat_list(screen, seats))
}

/// Logs a warning for each of this terminal's seats whose running clock
/// just went low (once, until its time is topped up).
pub fn warn_low_time<F: Front + ?Sized>(screen: &mut F) {
    let mine: Vec<u32> = screen.my_seats().iter().map(|s| u32::from(*s)).collect();
    let names: Vec<String> = (0..=u8::MAX).take(16).map(|s| screen.seat_word(s)).collect();
    let clocks = screen.clocks_mut();
    let low = clocks.newly_low(&mine);
    let now = clocks.now_ms();
    let lines: Vec<String> = low
        .iter()
        .filter_map(|seat| clocks.seats.iter().find(|c| c.seat == *seat))
        .map(|c| {
            let name = names.get(c.seat as usize).cloned().unwrap_or_else(|| format!("seat {}", c.seat));
            format!("your time is low: {} left on {name}'s clock", clock::mmss(c.left_ms(now)))
        })
        .collect();
    for line in lines {
        screen.note(line);
    }
}

/// Runs the screen until the person quits. `submit` is called for each
/// choice sent; it must not block.
pub fn run(
    mut screen: Box<dyn Front>,
    updates: Receiver<Update>,
    mut submit: impl FnMut(Submit),
) -> std::io::Result<Box<dyn Front>> {
    let mut terminal = ratatui::init();
    let result = (|| -> std::io::Result<()> {
        // The sequence number of the last choice sent, until a newer view arrives.
        let mut sent_at: Option<u64> = None;
        let mut feed_open = true;
        // Leaving, or a costly choice, was asked and waits for its
        // confirmation (the next key).
        let mut confirming: Option<Confirm> = None;
        // The keys so far of a signal that asks for one more.
        let mut chord: Option<String> = None;
        loop {
            // Redrawn every 80 ms at most: a running clock counts down.
            warn_low_time(&mut *screen);
            terminal.draw(|f| screen.draw(f))?;
            if event::poll(Duration::from_millis(80))? {
                match event::read()? {
                    TermEvent::Key(key) if confirming.is_some() && key.kind == KeyEventKind::Press => {
                        let yes = key.code == KeyCode::Char('y');
                        match confirming.take() {
                            Some(Confirm::Leave) if yes => {
                                let seat = screen.my_seats().first().copied().unwrap_or_default();
                                screen.set_status(Some("giving the seats back".into()));
                                submit(Submit { seat, request: Request::Leave, expect_seq: screen.seq() });
                            }
                            Some(Confirm::Leave) => screen.set_status(Some("you keep your seats".into())),
                            // Sent only if the state is still the one asked about.
                            Some(Confirm::Choose(s, label)) if yes && s.expect_seq == screen.seq() => {
                                screen.set_status(Some(format!("sent: {label}")));
                                sent_at = Some(s.expect_seq);
                                submit(s);
                            }
                            Some(Confirm::Choose(..)) if yes => {
                                screen.set_status(Some("the game moved on: look again before choosing".into()))
                            }
                            Some(Confirm::Choose(..)) => screen.set_status(Some("not sent".into())),
                            None => {}
                        }
                    }
                    TermEvent::Key(key) => match talk_key(&mut *screen, &mut chord, key) {
                        TalkKey::Send(s) => submit(s),
                        TalkKey::Used => {}
                        TalkKey::NotMine => match on_key(&mut *screen, key) {
                            Action::Quit => return Ok(()),
                            Action::Send if sent_at.is_none() => {
                                if let Some((seat, id, label)) = screen.chosen() {
                                    let s = Submit { seat, request: Request::Choose(id), expect_seq: screen.seq() };
                                    if let Some(question) = screen.confirm_question() {
                                        screen.set_status(Some(question));
                                        confirming = Some(Confirm::Choose(s, label));
                                    } else {
                                        screen.set_status(Some(format!("sent: {label}")));
                                        sent_at = Some(s.expect_seq);
                                        submit(s);
                                    }
                                }
                            }
                            Action::Leave => {
                                let seats = screen.my_seats();
                                if seats.is_empty() {
                                    screen.set_status(Some("you hold no seat here: you are watching".into()));
                                } else {
                                    confirming = Some(Confirm::Leave);
                                    screen.set_status(Some(leave_question(&*screen, &seats)));
                                }
                            }
                            Action::Hint => {
                                if let Some(s) = hint_request(&mut *screen) {
                                    submit(s);
                                }
                            }
                            Action::Undo if sent_at.is_none() => {
                                if let Some(seat) = screen.undo_seat() {
                                    let s = Submit { seat, request: Request::Undo, expect_seq: screen.seq() };
                                    screen.set_status(Some("asking to take back the last choice".into()));
                                    sent_at = Some(s.expect_seq);
                                    submit(s);
                                }
                            }
                            _ => {}
                        },
                    },
                    TermEvent::Resize(..) => terminal.autoresize()?,
                    _ => {}
                }
            }
            while feed_open {
                match updates.try_recv() {
                    Ok(Update::State { table, events, undo }) => match screen.apply(*table, &events, undo) {
                        Ok(()) => {
                            drop_stale_hint(&mut *screen);
                            if sent_at.is_some_and(|s| screen.seq() > s) {
                                sent_at = None;
                                screen.set_status(None);
                            }
                        }
                        Err(why) => {
                            sent_at = None;
                            screen.set_status(Some(why));
                        }
                    },
                    Ok(Update::Seats(seats)) => screen.set_seats(seats),
                    Ok(Update::Clocks(clocks)) => screen.clocks_mut().seats = clocks,
                    Ok(Update::ClockRules(rules)) => screen.clocks_mut().rules = Some(rules),
                    Ok(Update::PlayedBy(seat, by)) => {
                        if let Some(line) = played_by_line(by, &screen.seat_word(seat)) {
                            screen.note(line);
                        }
                    }
                    Ok(Update::Left(seats)) => {
                        screen.leave_seats(&seats);
                        sent_at = None;
                        let line = left_line(&*screen, &seats);
                        screen.set_status(Some(line));
                    }
                    Ok(Update::Notice(line)) => {
                        sent_at = None;
                        screen.set_status(Some(line));
                    }
                    Ok(Update::Talk(lines)) => screen.talk_mut().hear(lines),
                    Ok(Update::TalkRefused(why)) => screen.set_status(Some(why)),
                    Ok(Update::Hint(hint)) => hint_arrived(&mut *screen, hint),
                    Ok(Update::HintRefused(why)) => screen.set_status(Some(why)),
                    Ok(Update::Muted(seats)) => {
                        let line = muted_line(&*screen, &seats);
                        screen.talk_mut().muted = seats;
                        screen.set_status(Some(line));
                    }
                    Ok(Update::Quit) => return Ok(()),
                    Ok(Update::Closed(why)) => {
                        screen.set_status(Some(why));
                        feed_open = false;
                    }
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => feed_open = false,
                }
            }
        }
    })();
    ratatui::restore();
    result.map(|()| screen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::legio::ui::LegioScreen;

    #[test]
    fn low_time_on_this_terminals_running_clock_is_logged_once() {
        let mut screen = LegioScreen::new("g-1", crate::games::read(&tabletop::pb::GameState::default()), Some(0));
        let running = SeatClock {
            seat: 0,
            remaining_ms: 200_000,
            running: true,
            deadline_ms: Some(300_000),
            timed_out: false,
            forfeited: false,
        };
        screen.clocks = Clocks::new(ClockRules::parse("absolute:600").ok(), vec![running]);
        screen.clocks.fixed_now_ms = Some(100_000);
        warn_low_time(&mut screen);
        assert!(screen.log.is_empty(), "200 s of 600 is not low: {:?}", screen.log);
        screen.clocks.fixed_now_ms = Some(190_000);
        warn_low_time(&mut screen);
        assert_eq!(screen.log.len(), 1, "110 s is under a fifth of 10:00: {:?}", screen.log);
        assert_eq!(screen.log[0], "your time is low: 1:50 left on Commander 1's clock");
        screen.clocks.fixed_now_ms = Some(290_000);
        warn_low_time(&mut screen);
        warn_low_time(&mut screen);
        assert_eq!(screen.log.len(), 1, "warned once: {:?}", screen.log);
    }

    fn press(screen: &mut LegioScreen, chord: &mut Option<String>, code: KeyCode) -> TalkKey {
        talk_key(screen, chord, KeyEvent::new(code, KeyModifiers::NONE))
    }

    fn legio_screen(seat: Option<Seat>) -> LegioScreen {
        let g = legio_engine::Game::new(legio_engine::GameConfig::new(3, 5)).expect("a game");
        let viewer = seat.map_or(legio_engine::Viewer::Spectator, legio_engine::Viewer::Seat);
        LegioScreen::new("g-1", crate::games::legio::read::table(g.view(viewer), 0), seat)
    }

    #[test]
    fn t_opens_the_talk_line_every_key_types_tab_turns_whom_and_enter_says_it() {
        let mut s = legio_screen(Some(1));
        let mut chord = None;
        assert_eq!(press(&mut s, &mut chord, KeyCode::Char('j')), TalkKey::NotMine, "j still moves");
        assert_eq!(press(&mut s, &mut chord, KeyCode::Char('T')), TalkKey::Used);
        for c in "q x1?".chars() {
            assert_eq!(press(&mut s, &mut chord, KeyCode::Char(c)), TalkKey::Used, "{c} types, does not quit");
        }
        press(&mut s, &mut chord, KeyCode::Backspace);
        press(&mut s, &mut chord, KeyCode::Tab);
        assert_eq!(s.talk.draft.as_ref().map(|d| (d.text.as_str(), d.audience)), Some(("q x1", Audience::Seat(0))));
        let TalkKey::Send(said) = press(&mut s, &mut chord, KeyCode::Enter) else { panic!("Enter says it") };
        assert_eq!(said.seat, 1);
        assert_eq!(
            said.request,
            Request::Say(Saying { audience: Audience::Seat(0), text: "q x1".into(), signal: None })
        );
        assert!(s.talk.draft.is_none(), "the line closes");
        press(&mut s, &mut chord, KeyCode::Char('T'));
        press(&mut s, &mut chord, KeyCode::Char('z'));
        assert_eq!(press(&mut s, &mut chord, KeyCode::Esc), TalkKey::Used);
        assert!(s.talk.draft.is_none(), "Esc drops it");
    }

    #[test]
    fn a_signal_that_asks_for_a_key_takes_the_next_one() {
        let mut s = legio_screen(Some(0));
        let mut chord = None;
        assert_eq!(press(&mut s, &mut chord, KeyCode::Char('P')), TalkKey::Used);
        assert!(s.status.as_deref().is_some_and(|q| q.contains("which sector")), "{:?}", s.status);
        let TalkKey::Send(said) = press(&mut s, &mut chord, KeyCode::Char('2')) else { panic!("a landing in S2") };
        let Request::Say(line) = said.request else { panic!("a line") };
        assert!(line.signal.is_some() && line.text.is_empty());
        assert_eq!(s.status.as_deref(), Some("signalled: land with me in S2"));
        press(&mut s, &mut chord, KeyCode::Char('P'));
        assert_eq!(
            press(&mut s, &mut chord, KeyCode::Char('k')),
            TalkKey::Used,
            "not a sector: no signal, k not moved"
        );
        assert!(chord.is_none());
        let mut watching = legio_screen(None);
        assert_eq!(press(&mut watching, &mut chord, KeyCode::Char('T')), TalkKey::Used);
        assert!(watching.talk.draft.is_none(), "a spectator cannot talk");
        assert!(watching.status.as_deref().is_some_and(|m| m.contains("spectators")));
    }

    fn hint(s: &LegioScreen, seq: u64) -> Hint {
        let id = s.my_options().first().map(|o| o.id.clone()).unwrap_or_default();
        let advice = crate::hint::Advice { option_id: id, label: "x".into(), estimate: 0.3, reason: "why".into() };
        Hint { game: "g-1".into(), seat: 0, seq, options: vec![advice], think_ms: 5 }
    }

    #[test]
    fn b_asks_a_hint_for_the_deciding_seat_and_a_newer_state_takes_it_away() {
        let mut s = legio_screen(Some(0));
        let mut chord = None;
        let b = KeyEvent::new(KeyCode::Char(HINT_KEY), KeyModifiers::NONE);
        assert_eq!(talk_key(&mut s, &mut chord, b), TalkKey::NotMine, "B is no signal");
        assert!(matches!(on_key(&mut s, b), Action::Hint));
        let asked = hint_request(&mut s).expect("a seat asks");
        assert_eq!((asked.seat, asked.request, asked.expect_seq), (0, Request::Hint, s.table.seq));
        let seq = s.table.seq;
        let h = hint(&s, seq);
        hint_arrived(&mut s, h.clone());
        assert!(s.hint.is_some(), "shown");
        assert!(s.status.as_deref().is_some_and(|m| m.starts_with("hint: best ◆1")), "{:?}", s.status);
        drop_stale_hint(&mut s);
        assert!(s.hint.is_some(), "still about the state shown");
        let mut next = s.table.clone();
        next.seq += 1;
        s.set_table(next);
        drop_stale_hint(&mut s);
        assert!(s.hint.is_none(), "the seq moved past the hint's");
        hint_arrived(&mut s, h);
        assert!(s.hint.is_none(), "a hint about an older state is not shown");
        assert!(s.status.as_deref().is_some_and(|m| m.contains("moved on")), "{:?}", s.status);
        let mut watching = legio_screen(None);
        assert!(hint_request(&mut watching).is_none(), "a spectator has no decision to ask about");
    }

    #[test]
    fn z_then_a_seats_number_mutes_it_and_again_hears_it() {
        let mut s = legio_screen(Some(0));
        let mut chord = None;
        assert_eq!(press(&mut s, &mut chord, KeyCode::Char(MUTE_KEY)), TalkKey::Used);
        let asked = s.status.clone().unwrap_or_default();
        assert!(asked.contains("2 Commander 2") && asked.contains("3 Commander 3"), "{asked}");
        assert!(!asked.contains("1 Commander 1"), "not oneself: {asked}");
        let TalkKey::Send(mute) = press(&mut s, &mut chord, KeyCode::Char('3')) else { panic!("Z 3 mutes") };
        assert_eq!((mute.seat, mute.request), (0, Request::Mute { seat: 2, muted: true }));
        s.talk.muted = vec![2];
        press(&mut s, &mut chord, KeyCode::Char(MUTE_KEY));
        let TalkKey::Send(hear) = press(&mut s, &mut chord, KeyCode::Char('3')) else { panic!("Z 3 again") };
        assert_eq!(hear.request, Request::Mute { seat: 2, muted: false }, "a muted seat is heard again");
        press(&mut s, &mut chord, KeyCode::Char(MUTE_KEY));
        assert_eq!(press(&mut s, &mut chord, KeyCode::Char('1')), TalkKey::Used, "oneself: nothing");
        assert_eq!(s.status.as_deref(), Some("nobody muted"));
        assert!(chord.is_none());
        assert_eq!(muted_line(&s, &[2]), "not hearing Commander 3 (Z then its number: hear again)");
        let mut watching = legio_screen(None);
        assert_eq!(press(&mut watching, &mut chord, KeyCode::Char(MUTE_KEY)), TalkKey::Used);
        assert!(chord.is_none(), "a spectator mutes nobody");
    }

    #[test]
    fn a_state_without_clocks_keeps_the_clocks_shown() {
        let clock = tabletop::pb::SeatClock { seat: 0, remaining_ms: 30_000, ..Default::default() };
        let timed = tabletop::pb::GameState { clocks: vec![clock], ..Default::default() };
        let mut screen = LegioScreen::new("g-1", crate::games::read(&timed), Some(0));
        assert_eq!(screen.clocks.seats.len(), 1);
        screen.set_table(crate::games::read(&tabletop::pb::GameState { seq: 1, ..Default::default() }));
        assert_eq!(screen.clocks.seats.len(), 1, "the stream's first snapshot carries no clocks");
        let later = tabletop::pb::SeatClock { remaining_ms: 12_000, ..clock };
        screen.set_table(crate::games::read(&tabletop::pb::GameState {
            seq: 2,
            clocks: vec![later],
            ..Default::default()
        }));
        assert_eq!(screen.clocks.seats[0].remaining_ms, 12_000);
    }
}
