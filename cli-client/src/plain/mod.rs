//! Plain text for when stdout is not a terminal: a state as a short report
//! and events as lines, no colours and no cursor movement. Scripts and logs
//! read this. Each game's own report lives in its folder
//! (`games/<game>/plain.rs`); `any` is the platform-only one, for a game
//! the client has no reader for.

pub mod any;
