//! X-ODUS captains: every part of the agent that knows X-ODUS. `board`
//! (distances over the public map), `eval` (the team's value of a state),
//! `skill` (Skill Roll odds), `value` and `fitting` (a learned chance to
//! win, off by default; the weights in `value.json`), `tune` (weights
//! overridden at run time), `policy` (random, heuristic, mcts), `game`
//! (the entry in the agent's list of games: it heeds the table's calls,
//! `calls`, and says where it heads), `selfplay` and `results`
//! (games on threads and what they report), `cli` (its command-line
//! tools).

pub mod board;
pub mod calls;
pub mod cli;
pub mod eval;
pub mod fitting;
pub mod game;
pub mod hint;
pub mod policy;
pub mod results;
pub mod selfplay;
pub mod skill;
pub mod tune;
pub mod value;
