//! The VII Legio screen: a [`LegioScreen`] model and panels drawn from
//! the engine's view (`legio_engine::View`) and the platform's decision,
//! one job per module: `board` (the sectors), `commanders` (every
//! public board), `hand` (the viewer's secrets), `scores` (PC, Xeno track,
//! Imperator, contacts), `decision` (the menu), `outcome` (the end),
//! `log`, `talk` (the talk panel, the signal keys), `status`, `help`,
//! `layout` (which panels fit), `names`
//! (content in words). A game the client has no board for is shown with
//! the same screen from its decision and log alone.

mod board;
mod commanders;
mod decision;
mod front;
mod hand;
mod help;
mod layout;
mod log;
mod mission;
mod model;
pub mod names;
mod outcome;
mod scores;
mod status;
pub(crate) mod talk;

pub use layout::{draw, render};
pub use model::LegioScreen;
