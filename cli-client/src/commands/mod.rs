//! The commands of the `xodus` binary, one module each, plus what they
//! share: turning setup flags into a [`NewGame`], and following a game on
//! the screen or as plain lines.

pub mod interrupt;
pub mod play;
pub mod script;
pub mod session;
pub mod watch;
pub mod web;

use xodus_cli::cli::SetupArgs;
use xodus_cli::games;
use xodus_cli::remote::NewGame;

/// Returns from the function with a [`UsageError`] (exit code 2): the
/// command line asks for what cannot be.
macro_rules! usage {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new(xodus_cli::cli::UsageError(format!($($arg)*))))
    };
}
pub(crate) use usage;

/// Checks setup flags for a game of `game_type` and turns them into a
/// game request.
pub fn new_game(s: &SetupArgs, game_type: &str, ai_seats: Vec<u8>) -> anyhow::Result<NewGame> {
    let setup = match games::game(game_type) {
        Some(g) => g.setup(s)?,
        None if valid_type_name(game_type) => games::other_game(game_type, s)?,
        None => usage!("unknown game {game_type:?} (--game); games are {}", games::names()),
    };
    let game = NewGame { setup, ai_seats, clock: s.clock_rules() };
    let count = game.seat_count();
    if let Some(bad) = game.ai_seats.iter().find(|s| **s >= count) {
        usage!(
            "--ai-seats names seat {bad}, but a {count}-seat game has seats 0 to {} (seats count from 0)",
            count - 1
        );
    }
    Ok(game)
}

/// The number of seats the setup flags give a game of `game_type`.
pub fn seat_count(s: &SetupArgs, game_type: &str) -> u8 {
    games::game(game_type).map_or(s.players.unwrap_or(games::OTHER_GAME_SEATS), |g| g.seat_count(s))
}

/// Whether a name may be a game type the server hosts (which it does, the
/// server says): 1 to 32 of a-z, 0-9, '_' and '-', from a letter.
fn valid_type_name(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}
