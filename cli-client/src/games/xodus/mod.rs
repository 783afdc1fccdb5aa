//! X-ODUS in this client: captains named by seat, the ship, difficulty,
//! Allies and variant flags checked into an `XodusSetup`, the engine's view
//! read by `xodus-wire`.

pub mod plain;
pub mod ui;

use super::ClientGame;
use crate::cli::{SetupArgs, UsageError};
use crate::remote::NewSetup;
use crate::table::Typed;
use tabletop::pb;
use xodus_engine::{AllyKind, Difficulty, ShipKind};

/// X-ODUS: Rise of the Corruption.
pub struct Xodus;

fn usage(text: String) -> anyhow::Error {
    anyhow::Error::new(UsageError(text))
}

impl ClientGame for Xodus {
    fn game_type(&self) -> &'static str {
        xodus_wire::GAME_TYPE
    }

    fn title(&self) -> &'static str {
        "X-ODUS"
    }

    fn seat_name(&self, seat: u32) -> String {
        format!("captain {seat}")
    }

    fn holders(&self) -> &'static str {
        "captains"
    }

    fn private_hands(&self) -> bool {
        false
    }

    fn seat_count(&self, s: &SetupArgs) -> u8 {
        if s.ship_kinds.is_empty() { s.ships } else { s.ship_kinds.len() as u8 }
    }

    fn setup(&self, s: &SetupArgs) -> anyhow::Result<NewSetup> {
        if s.players.is_some() || s.round_limit.is_some() {
            return Err(usage(
                "--players and --round-limit are for VII Legio: add --game legio (X-ODUS, the default game, counts ships: --ships)"
                    .into(),
            ));
        }
        let ships = s
            .ship_kinds
            .iter()
            .map(|k| {
                ShipKind::parse(k).ok_or_else(|| {
                    let all: Vec<&str> = ShipKind::ALL.iter().map(|k| k.as_str()).collect();
                    usage(format!("unknown ship {k:?} (--ship-kinds); ships are {}", all.join(", ")))
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let count = self.seat_count(s);
        if !(3..=4).contains(&count) {
            return Err(usage(format!("an X-ODUS game has 3 or 4 ships (--ships), not {count}")));
        }
        if Difficulty::parse(&s.difficulty).is_none() {
            return Err(usage(format!(
                "unknown difficulty {:?} (--difficulty); choose casual, hardened or heroic",
                s.difficulty
            )));
        }
        if let Some(a) = s.allies.iter().find(|a| AllyKind::parse(a).is_none()) {
            let all: Vec<&str> = AllyKind::ALL.iter().map(|k| k.as_str()).collect();
            return Err(usage(format!("unknown Ally {a:?} (--allies); Allies are {}", all.join(", "))));
        }
        let wire = tabletop::any::game_setup(tabletop::xodus_pb::XodusSetup {
            ship_count: u32::from(count),
            ships: ships.iter().map(|k| k.as_str().to_string()).collect(),
            difficulty: s.difficulty.clone(),
            allies: s.allies.clone(),
            seed: s.seed,
            nightmare: s.nightmare,
        });
        Ok(NewSetup {
            game_type: self.game_type().into(),
            seats: count,
            kind: pb::GameKind::Xodus as i32,
            wire: Some(wire),
        })
    }

    fn read(&self, state: &pb::GameState) -> Result<Typed, String> {
        xodus_wire::view(state).map(|v| Typed::Xodus(Box::new(v))).map_err(|e| e.to_string())
    }

    fn web_form(&self) -> &'static str {
        ""
    }

    fn screen(&self) -> super::ScreenKind {
        super::ScreenKind::Map
    }
}
