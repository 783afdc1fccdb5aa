//! The games this server ships with, each implementing the hosting
//! contract of [`crate::game`]. Only these modules name a game's types.

pub mod xodus;
