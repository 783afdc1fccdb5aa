//! # xodus-cli: the terminal client for X-ODUS and VII Legio
//!
//! Layout: `ui` draws a [`ui::Screen`] (the client-side picture of one game:
//! the last view, the event log, the last roll, the menu cursor) with
//! ratatui, and knows nothing about gRPC, so snapshot tests render real
//! engine states without a server; `plain` prints the same picture as text
//! when stdout is not a terminal. The command layer (`main.rs` and its
//! modules) talks to the service and feeds views and events into a
//! `Screen`. VII Legio has its own screen (`ui::legio`), drawn from its
//! engine's view; `table` reads any game's state, so a game the client has
//! no screen for is still played from its decision alone.
//!
//! The key design choice: the client never interprets the rules. It shows
//! the public view it receives and offers exactly the options of the
//! pending decision, by id.
#![deny(missing_docs)]

pub mod cli;
pub mod clock;
pub mod games;
pub mod plain;
pub mod procs;
pub mod remote;
pub mod saved;
pub mod seats;
pub mod table;
pub mod tui;
pub mod ui;
