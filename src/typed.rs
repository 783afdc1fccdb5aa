//! Why a game's typed state (or a part of it) does not read back into the
//! game's own types: the one error of every game's wire crate.

/// A typed state that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    /// A required field is unset.
    #[error("the typed state has no `{0}`")]
    Missing(&'static str),
    /// A field holds a value the game never uses.
    #[error("the typed state's `{0}` is out of range")]
    OutOfRange(&'static str),
    /// The game state carries no typed state of this game (the message's
    /// full name, e.g. "legio.v1.LegioState").
    #[error("the game state carries no {0}")]
    NotThisGame(&'static str),
}
