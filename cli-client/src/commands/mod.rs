//! The commands of the `xodus` binary, one module each, plus what they
//! share: turning setup flags into a [`NewGame`], and following a game on
//! the screen or as plain lines.

pub mod play;
pub mod script;
pub mod session;
pub mod watch;
pub mod web;

use anyhow::{Context, bail};
use xodus_cli::cli::SetupArgs;
use xodus_cli::remote::NewGame;
use xodus_engine::{AllyKind, Difficulty, ShipKind};

/// Checks setup flags and turns them into a game request.
pub fn new_game(s: &SetupArgs, ai_seats: Vec<u8>) -> anyhow::Result<NewGame> {
    let ships = s
        .ship_kinds
        .iter()
        .map(|k| {
            ShipKind::parse(k).with_context(|| {
                let all: Vec<&str> = ShipKind::ALL.iter().map(|k| k.as_str()).collect();
                format!("unknown ship {k:?}; ships are {}", all.join(", "))
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let count = if ships.is_empty() { s.ships } else { ships.len() as u8 };
    if !(3..=4).contains(&count) {
        bail!("a game has 3 or 4 ships, not {count}");
    }
    if Difficulty::parse(&s.difficulty).is_none() {
        bail!("unknown difficulty {:?}; choose casual, hardened or heroic", s.difficulty);
    }
    for a in &s.allies {
        if AllyKind::parse(a).is_none() {
            let all: Vec<&str> = AllyKind::ALL.iter().map(|k| k.as_str()).collect();
            bail!("unknown Ally {a:?}; Allies are {}", all.join(", "));
        }
    }
    if let Some(bad) = ai_seats.iter().find(|s| **s >= count) {
        bail!("seat {bad} does not exist in a {count}-ship game (seats 0..{})", count - 1);
    }
    Ok(NewGame {
        ship_count: count,
        ships,
        difficulty: s.difficulty.clone(),
        allies: s.allies.clone(),
        seed: s.seed,
        nightmare: s.nightmare,
        ai_seats,
    })
}
