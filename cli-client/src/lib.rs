//! # xodus-cli: the terminal client for X-ODUS and VII Legio
//!
//! Layout: `games` lists the games the client knows (`ClientGame`), and
//! each game's terminal parts live in its folder there: its screen
//! (`games/<game>/ui/`, drawn with ratatui from the game's view, knowing
//! nothing about gRPC, so snapshot tests render real engine states without
//! a server), its text report for when stdout is not a terminal, its
//! reader. `ui` holds what every screen is drawn with, `tui` the keyboard
//! loop over any screen, `table` any game's state read game-neutrally
//! (so a game the client has no screen for is still played from its
//! decision alone, on the table screen), `plain` the platform-only text
//! report, `remote` the server's calls, `talk` the
//! table talk a screen hears and says, `hint` the advice a seat asks
//! for. The command layer (`main.rs` and its modules) talks to the
//! service and feeds states and events into a screen; outside `games/`
//! no code names a game.
//!
//! The key design choice: the client never interprets the rules. It shows
//! the public view it receives and offers exactly the options of the
//! pending decision, by id.
#![deny(missing_docs)]

pub mod cli;
pub mod clock;
pub mod games;
pub mod hint;
pub mod plain;
pub mod procs;
pub mod remote;
pub mod saved;
pub mod seats;
pub mod table;
pub mod talk;
pub mod tui;
pub mod ui;
