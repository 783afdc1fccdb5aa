//! The commands of the `xodus` binary, one module each, plus what they
//! share: turning setup flags into a [`NewGame`], and following a game on
//! the screen or as plain lines.

pub mod interrupt;
pub mod play;
pub mod script;
pub mod session;
pub mod watch;
pub mod web;

use xodus_cli::cli::{SetupArgs, UsageError};
use xodus_cli::remote::{NewGame, NewSetup};
use xodus_cli::table;
use xodus_engine::{AllyKind, Difficulty, ShipKind};

/// Returns from the function with a [`UsageError`] (exit code 2): the
/// command line asks for what cannot be.
macro_rules! usage {
    ($($arg:tt)*) => {
        return Err(anyhow::Error::new(xodus_cli::cli::UsageError(format!($($arg)*))))
    };
}
pub(crate) use usage;

/// The games `--game` may name.
pub const GAME_TYPES: [&str; 2] = [table::XODUS, table::LEGIO];

/// Commanders in a VII Legio game when --players is absent.
pub const DEFAULT_PLAYERS: u8 = 3;

/// Checks setup flags for a game of `game_type` and turns them into a
/// game request.
pub fn new_game(s: &SetupArgs, game_type: &str, ai_seats: Vec<u8>) -> anyhow::Result<NewGame> {
    let setup = match game_type {
        table::XODUS => xodus_setup(s)?,
        table::LEGIO => {
            let players = s.players.unwrap_or(DEFAULT_PLAYERS);
            if !(2..=4).contains(&players) {
                usage!("VII Legio is played by 2 to 4 commanders (--players), not {players}");
            }
            NewSetup::Legio { players, seed: s.seed, round_limit: s.round_limit }
        }
        other => usage!("unknown game {other:?} (--game); games are {}", GAME_TYPES.join(", ")),
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
    match game_type {
        table::LEGIO => s.players.unwrap_or(DEFAULT_PLAYERS),
        _ if s.ship_kinds.is_empty() => s.ships,
        _ => s.ship_kinds.len() as u8,
    }
}

/// The X-ODUS setup flags, checked.
fn xodus_setup(s: &SetupArgs) -> anyhow::Result<NewSetup> {
    if s.players.is_some() || s.round_limit.is_some() {
        usage!(
            "--players and --round-limit are for VII Legio: add --game legio (X-ODUS, the default game, counts ships: --ships)"
        );
    }
    let ships = s
        .ship_kinds
        .iter()
        .map(|k| {
            ShipKind::parse(k).ok_or_else(|| {
                let all: Vec<&str> = ShipKind::ALL.iter().map(|k| k.as_str()).collect();
                UsageError(format!("unknown ship {k:?} (--ship-kinds); ships are {}", all.join(", ")))
            })
        })
        .collect::<Result<Vec<_>, UsageError>>()?;
    let count = if ships.is_empty() { s.ships } else { ships.len() as u8 };
    if !(3..=4).contains(&count) {
        usage!("an X-ODUS game has 3 or 4 ships (--ships), not {count}");
    }
    if Difficulty::parse(&s.difficulty).is_none() {
        usage!("unknown difficulty {:?} (--difficulty); choose casual, hardened or heroic", s.difficulty);
    }
    for a in &s.allies {
        if AllyKind::parse(a).is_none() {
            let all: Vec<&str> = AllyKind::ALL.iter().map(|k| k.as_str()).collect();
            usage!("unknown Ally {a:?} (--allies); Allies are {}", all.join(", "));
        }
    }
    Ok(NewSetup::Xodus {
        ship_count: count,
        ships,
        difficulty: s.difficulty.clone(),
        allies: s.allies.clone(),
        seed: s.seed,
        nightmare: s.nightmare,
    })
}
