//! The interactive loop: draws the [`Screen`], reads the keyboard, and
//! exchanges messages with whatever feeds it (the gRPC session in the
//! binary, an in-process engine in the example). It owns the terminal
//! between `ratatui::init` and `ratatui::restore`, so a panic or an error
//! still leaves the terminal usable.

use crate::seats::SeatHolder;
use crate::ui::{Screen, draw};
use ratatui::crossterm::event::{self, Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::Duration;
use xodus_engine::{Event, Seat, View};

/// What the feeding side tells the screen.
#[derive(Debug)]
pub enum Update {
    /// A newer view, with the events that led to it.
    State {
        /// The view.
        view: Box<View>,
        /// Events since the previous view.
        events: Vec<Event>,
        /// The step took back the last choice (an undo).
        undo: bool,
    },
    /// Who holds each seat now (the first report, then each change).
    Seats(Vec<SeatHolder>),
    /// A line for the log (a refused choice, a reconnection).
    Notice(String),
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
}

/// A request the person made, as one of this terminal's seats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submit {
    /// The seat choosing (for an undo: the first of this terminal's seats;
    /// the sender tries the others).
    pub seat: Seat,
    /// What is asked.
    pub request: Request,
    /// The sequence number of the state shown when it was asked.
    pub expect_seq: u64,
}

/// What a key asks for.
enum Action {
    None,
    Quit,
    Send,
    Undo,
}

fn on_key(screen: &mut Screen, key: KeyEvent) -> Action {
    if key.kind != KeyEventKind::Press {
        return Action::None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return Action::Quit;
    }
    match key.code {
        KeyCode::Esc if screen.show_help => screen.show_help = false,
        KeyCode::Char('q') | KeyCode::Esc => return Action::Quit,
        KeyCode::Char('?') => screen.show_help = !screen.show_help,
        KeyCode::Up | KeyCode::Char('k') => screen.move_selection(-1),
        KeyCode::Down | KeyCode::Char('j') => screen.move_selection(1),
        KeyCode::PageUp => screen.scroll_log(5),
        KeyCode::PageDown => screen.scroll_log(-5),
        KeyCode::Char('H') => screen.pan.0 -= 1,
        KeyCode::Char('L') => screen.pan.0 += 1,
        KeyCode::Char('K') => screen.pan.1 -= 1,
        KeyCode::Char('J') => screen.pan.1 += 1,
        KeyCode::Char('0') => screen.pan = (0, 0),
        KeyCode::Char(c @ '1'..='9') => {
            screen.select(c as usize - '1' as usize);
        }
        KeyCode::Enter => return Action::Send,
        KeyCode::Char('u') => return Action::Undo,
        _ => {}
    }
    Action::None
}

/// Runs the screen until the person quits. `submit` is called for each
/// choice sent; it must not block.
pub fn run(mut screen: Screen, updates: Receiver<Update>, mut submit: impl FnMut(Submit)) -> std::io::Result<Screen> {
    let mut terminal = ratatui::init();
    let result = (|| -> std::io::Result<()> {
        // The sequence number of the last choice sent, until a newer view arrives.
        let mut sent_at: Option<u64> = None;
        let mut feed_open = true;
        loop {
            terminal.draw(|f| draw(f, &screen))?;
            if event::poll(Duration::from_millis(80))? {
                match event::read()? {
                    TermEvent::Key(key) => match on_key(&mut screen, key) {
                        Action::Quit => return Ok(()),
                        Action::Send if sent_at.is_none() => {
                            if let Some((seat, o)) = screen.selected_option() {
                                let s = Submit {
                                    seat,
                                    request: Request::Choose(o.id.clone()),
                                    expect_seq: screen.view.public.seq,
                                };
                                screen.status = Some(format!("sent: {}", o.label));
                                sent_at = Some(s.expect_seq);
                                submit(s);
                            }
                        }
                        Action::Undo if sent_at.is_none() => {
                            if let Some(seat) = screen.my_seats.first().copied() {
                                let s = Submit { seat, request: Request::Undo, expect_seq: screen.view.public.seq };
                                screen.status = Some("asking to take back the last choice".into());
                                sent_at = Some(s.expect_seq);
                                submit(s);
                            }
                        }
                        _ => {}
                    },
                    TermEvent::Resize(..) => terminal.autoresize()?,
                    _ => {}
                }
            }
            while feed_open {
                match updates.try_recv() {
                    Ok(Update::State { view, events, undo }) => {
                        if sent_at.is_some_and(|s| view.public.seq > s) {
                            sent_at = None;
                            screen.status = None;
                        }
                        screen.set_view(*view);
                        if undo {
                            screen.take_back();
                        } else {
                            screen.push_choice(&events);
                        }
                    }
                    Ok(Update::Seats(seats)) => screen.set_seats(seats),
                    Ok(Update::Notice(line)) => {
                        sent_at = None;
                        screen.status = Some(line);
                    }
                    Ok(Update::Quit) => return Ok(()),
                    Ok(Update::Closed(why)) => {
                        screen.status = Some(why);
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
