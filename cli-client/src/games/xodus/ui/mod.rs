//! X-ODUS's terminal screen: one [`Screen`] model and a [`draw`] function
//! that lays the panels out for the terminal's current size. Each panel is
//! a small module with one job; `layout` decides which panels fit. What
//! every screen shares (menu, log, clocks line, frames, colours) comes
//! from `crate::ui`.

mod corruption;
mod decision;
mod fight;
mod front;
mod help;
mod layout;
mod log;
mod map;
mod model;
mod ships;
mod status;
pub mod style;
pub(crate) mod talk;

pub use layout::{MIN_HEIGHT, MIN_WIDTH, draw, render};
pub use model::{LastRoll, Screen};
