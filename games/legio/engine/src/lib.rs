//! # legio-engine: the rules of VII Legio: Nébuleuse Rouge
//!
//! A pure, deterministic state machine for 2 to 4 commanders. No I/O, no
//! clock, no global random generator, and nothing of the service: a game
//! is its [`GameConfig`] plus the ordered list of accepted choices, and
//! replaying them gives the same [`Game::state_hash`] on any machine.
//!
//! The decision model is X-ODUS's: at every step exactly one pending
//! [`Decision`] with one deciding seat and enumerated options, each with a
//! stable id, a structured [`Choice`] and a label. [`Game::apply`] accepts
//! one of them (or refuses with a [`RuleError`] and changes nothing), then
//! runs the queued tasks and automatic steps until the next decision.
//! Out-of-turn steps (answers to invitations, each participant's spending,
//! star and dismissal in a mission, technology at 6 PX, objectives at 18
//! PC) are queued [`Task`]s that become decisions in turn order.
//!
//! A game plays the rules revision of its configuration
//! ([`GameConfig::rules_revision`]; new games play [`RULES_REVISION`]),
//! so a stored game replays as it was played. Refusals name nothing of the
//! decider's options; [`Game::apply_checked`] says whether a step may be
//! undone (it revealed and rolled nothing).
//!
//! Layout: `content` (data files and their validation), `config`,
//! `state` (public and hidden halves), `decision`, `event`, `setup`,
//! `legal` (the options), `price` (what each option costs at once),
//! `apply` (dispatch and the task loop), and the
//! rules one area each: `turn`, `explore`, `discovery`, `landing`,
//! `mission`, `xeno`, `objectives`, `score`; then `view` (views and
//! sampling) and `hash`. The readings of the rulebook's gaps are in
//! docs/legio-readings.md; NOTES.md says how the crate fits the service's
//! hosting trait.
#![deny(missing_docs)]

mod apply;
mod config;
pub mod content;
mod decision;
mod discovery;
mod event;
mod explore;
mod hash;
mod landing;
mod legal;
mod mission;
mod objectives;
mod price;
mod score;
mod setup;
mod state;
mod turn;
mod view;
mod xeno;

#[cfg(test)]
mod rules_tests;

pub use apply::RuleError;
pub use config::{ConfigError, DEFAULT_ROUND_LIMIT, GameConfig, HOSTED_ROUND_LIMIT, RULES_REVISION};
pub use decision::{Choice, ChoiceOption, Decision, Gear, Pending, Personnel, Purpose, Task};
pub use discovery::DISCOVERY_MARKERS;
pub use event::{Event, undoable};
pub use price::Price;
pub use rng::GameRng;
pub use state::{
    ActivePlanet, ExpertKind, Experts, Game, Hidden, Imperator, Landing, Mission, Outcome, PLANETS, Public, Seat, Ship,
    Side, Tech, TurnFlags,
};
use tabletop_kit::rng;
pub use view::{Counts, Private, View, Viewer};
pub use xeno::XENO_MAX;
