//! The ratatui screen: one [`Screen`] model and a [`draw`] function that
//! lays the panels out for the terminal's current size. Each panel is a
//! small module with one job; `layout` decides which panels fit. The
//! screen above is X-ODUS's; `legio` is VII Legio's (and any other game's,
//! from its decision and log).

mod clock;
mod corruption;
mod decision;
mod fight;
mod frame;
mod help;
mod layout;
pub mod legio;
mod log;
mod map;
pub mod menu;
mod model;
mod ships;
mod status;
pub mod style;

pub use layout::{MIN_HEIGHT, MIN_WIDTH, draw, render};
pub use model::{LastRoll, Screen};
