//! # xodus-engine: the rules of X-ODUS: Rise of the Corruption
//!
//! A pure, deterministic state machine. No I/O, no clock, no global random
//! generator: a game is its [`GameConfig`] (ships, difficulty, Allies,
//! seed) plus the ordered list of accepted choices, and replaying them
//! gives the same [`Game::state_hash`] on any machine.
//!
//! The key design choice is the decision model. At every step there is
//! exactly one pending [`Decision`]: its kind, the seats that may take it,
//! and the enumerated legal options, each with a stable id, a structured
//! [`Choice`] payload and a label. [`Game::apply`] accepts exactly one of
//! those options (or refuses with a [`RuleError`] and changes nothing), then
//! runs every automatic step (Corruption phase, End phase, victory and
//! defeat) until the next decision. This lets any front-end play without
//! knowing the rules, lets the AI enumerate moves, and lets tests play
//! random legal games forever.
//!
//! Layout: `content` (data files and their validation, one submodule per
//! file), `config`, `hex`
//! (geometry), `small` (inline short lists for the hot paths), `rng`,
//! `state` (public and hidden halves, and the board index), `decision`,
//! `event`, `setup`, `legal` (the options), `apply` (dispatch and the
//! automatic steps), `turn`, `movement`, `combat`, `corruption`,
//! `signals`, `exploration`, `effects`, `view` (views and determinization),
//! `hash`.
#![deny(missing_docs)]

mod apply;
mod combat;
mod config;
pub mod content;
mod corruption;
mod decision;
mod effects;
mod event;
mod exploration;
mod hash;
mod hex;
mod json64;
mod legal;
mod movement;
mod moves;
mod powers;
mod setup;
mod signals;
mod small;
mod state;
pub mod text;
mod trade;
mod turn;
mod view;

#[cfg(test)]
mod rules_tests;

pub use apply::RuleError;
pub use config::{AllyKind, ConfigError, Difficulty, GameConfig, RULES_REVISION, ShipKind};
pub use decision::{Choice, ChoiceOption, Decision, DecisionKind, Grant, Pending, Source, Target};
pub use event::{EngageCause, Event, RollPurpose};
pub use hex::Hex;
pub use moves::{Legal, Move, Seats};
pub use rng::GameRng;
pub use state::{
    AllyInPlay, Avatar, AvatarPlace, BoardEnemy, Corruption, Fight, Game, MOVEMENT_RED, MOVEMENT_WHITE, Outcome,
    Pacified, Phase, Pile, PlacedTile, Public, RolledDie, Seat, SeatRoll, Ship, SignalSlot,
};
use tabletop_kit::rng;
pub use view::{View, Viewer};
