//! VII Legio in this client: commanders named from 1, the number of
//! commanders, seed and round limit checked into a `LegioSetup`, the
//! engine's view read by `read`, drawn by `ui` (the table screen, which
//! also draws any game this client has no board for) and reported as text
//! by `plain`.

pub mod plain;
pub mod read;
pub mod ui;

use super::{ClientGame, NewSetup};
use crate::cli::{SetupArgs, UsageError};
use crate::table::{self, Table, Typed};
use legio_engine::View;
use tabletop::pb;

/// The VII Legio view of a state, if it is a readable VII Legio state.
pub fn view(table: &Table) -> Option<&View> {
    table.view::<View>()
}

/// VII Legio: Nébuleuse Rouge.
pub struct Legio;

/// Commanders in a game when `--players` is absent (the page's default too).
pub const DEFAULT_PLAYERS: u8 = 3;

impl ClientGame for Legio {
    fn signal(&self, spec: &str) -> Option<Result<table::Packed, String>> {
        ui::talk::parse_spec(spec)
    }

    fn signal_kinds(&self) -> &'static str {
        ui::talk::SPEC_KINDS
    }

    fn game_type(&self) -> &'static str {
        legio_wire::GAME_TYPE
    }

    fn title(&self) -> &'static str {
        "VII Legio"
    }

    fn seat_name(&self, seat: u32) -> String {
        legio_wire::events::commander(u8::try_from(seat).unwrap_or(u8::MAX))
    }

    fn holders(&self) -> &'static str {
        "commanders"
    }

    fn private_hands(&self) -> bool {
        true
    }

    fn seat_count(&self, s: &SetupArgs) -> u8 {
        s.players.unwrap_or(DEFAULT_PLAYERS)
    }

    fn setup(&self, s: &SetupArgs) -> anyhow::Result<NewSetup> {
        let players = self.seat_count(s);
        if !(2..=4).contains(&players) {
            return Err(anyhow::Error::new(UsageError(format!(
                "VII Legio is played by 2 to 4 commanders (--players), not {players}"
            ))));
        }
        let wire = pb::create_game_request::Setup::GameSetup(tabletop::any::pack(&tabletop::legio_pb::LegioSetup {
            players: u32::from(players),
            seed: s.seed,
            round_limit: s.round_limit,
        }));
        Ok(NewSetup {
            game_type: self.game_type().into(),
            seats: players,
            kind: pb::GameKind::Legio as i32,
            wire: Some(wire),
        })
    }

    fn read(&self, state: &pb::GameState) -> Result<Typed, String> {
        read::view(state).map(Typed::new)
    }

    fn web_form(&self) -> &'static str {
        "#/new/legio"
    }

    fn report(&self, game_id: &str, table: &Table) -> Option<String> {
        view(table).map(|v| plain::report(game_id, table, v))
    }
}
