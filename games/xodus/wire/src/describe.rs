//! The rules text of X-ODUS's content, in English, written from the same
//! data the engine plays by, so what a player reads is what the engine
//! does. One function per catalog category.
//!
//! Every `match` over a content enum names each variant: a new kind of
//! effect, ability or skill does not compile until it has its words.

mod board;
mod crew;
mod foes;
mod powers;

pub use board::{exploration, signal, tile};
pub use crew::{ally, ship};
pub use foes::{avatar, damaged, enemy};
pub use powers::{mod_effect, mod_level, module};
