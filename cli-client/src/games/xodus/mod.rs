//! X-ODUS in this client: captains named by seat, the ship, difficulty,
//! Allies and variant flags checked into an `XodusSetup`, the engine's view
//! and events read by `xodus-wire` and serde, drawn by `ui` (the hex map
//! with the ships' mats) and reported as text by `plain`; the scripted
//! commands print the engine's own view and decision for it.

pub mod plain;
pub mod ui;

use super::{ClientGame, NewSetup};
use crate::cli::{SetupArgs, UsageError};
use crate::seats::Seat;
use crate::table::{self, Table, Typed};
use crate::tui::Front;
use serde_json::json;
use tabletop::pb;
use tabletop::xodus_pb;
use xodus_engine::content::Content;
use xodus_engine::{AllyKind, Difficulty, Event, ShipKind, View};

/// The X-ODUS view of a state, if it is a readable X-ODUS state.
pub fn view(table: &Table) -> Option<&View> {
    table.view::<View>()
}

/// X-ODUS engine events from their wire form (unknown shapes are skipped).
pub fn events(wire: &[pb::Event]) -> Vec<Event> {
    wire.iter()
        .filter_map(|e| match serde_json::from_str(&e.event_json) {
            Ok(ev) => Some(ev),
            Err(err) => {
                tracing::warn!("event {} not understood: {err}", e.kind);
                None
            }
        })
        .collect()
}

/// An X-ODUS outcome in the platform's terms (a team result).
pub fn team_outcome(o: &xodus_engine::Outcome) -> table::Outcome {
    table::Outcome { kind: "team".into(), won: o.won, cause: o.cause.clone(), round: o.round, ..Default::default() }
}

/// The engine view an X-ODUS state carries, or why it has none.
fn view_of(table: Table) -> Result<View, String> {
    if let Some(v) = view(&table) {
        return Ok(v.clone());
    }
    match table.typed {
        Typed::Unread(Some(e)) => Err(format!(
            "the server's typed state is not one this client reads ({e}); build xodus and xodus-server from the same commit"
        )),
        _ => {
            Err(format!("this is a {} game, not X-ODUS; `xodus view` and `xodus watch` show any game", table.game_type))
        }
    }
}

/// X-ODUS: Rise of the Corruption.
pub struct Xodus;

fn usage(text: String) -> anyhow::Error {
    anyhow::Error::new(UsageError(text))
}

impl ClientGame for Xodus {
    fn signal(&self, spec: &str) -> Option<Result<table::Packed, String>> {
        ui::talk::parse_spec(spec)
    }

    fn signal_kinds(&self) -> &'static str {
        ui::talk::SPEC_KINDS
    }

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
        xodus_wire::view(state).map(Typed::new).map_err(|e| e.to_string())
    }

    fn web_form(&self) -> &'static str {
        ""
    }

    fn screen(&self, game_id: &str, table: Table, seats: Vec<Seat>) -> Result<Box<dyn Front>, String> {
        let clocks = table.clocks.clone();
        let mut screen = ui::Screen::new(game_id, view_of(table)?, seats);
        screen.clocks.seats = clocks;
        Ok(Box::new(screen))
    }

    fn seat_title(&self, table: &Table, seat: Seat) -> String {
        match view(table).and_then(|v| v.public.ships.iter().find(|s| s.seat == seat)) {
            Some(ship) => format!("seat {seat} {}", Content::get().ship(ship.kind).name),
            None => format!("seat {seat} {}", self.seat_name(u32::from(seat))),
        }
    }

    fn event_lines(&self, wire: &[pb::Event], table: &Table) -> Option<Vec<String>> {
        let v = view(table)?;
        let events = events(wire);
        let lines = events.iter().map(|e| xodus_wire::events::log_line(e, Some(&v.public)));
        (!events.is_empty()).then(|| lines.collect())
    }

    fn act_json(
        &self,
        game_id: &str,
        seat: Seat,
        option: &str,
        wire: &[pb::Event],
        table: &Table,
    ) -> Option<serde_json::Value> {
        let view = view(table)?;
        Some(json!({
            "game": game_id,
            "seat": seat,
            "option": option,
            "seq": view.public.seq,
            "events": events(wire).iter().map(|e| xodus_wire::events::log_line(e, Some(&view.public))).collect::<Vec<_>>(),
            "decision": view.decision,
            "outcome": view.public.outcome,
        }))
    }

    fn view_json(&self, table: &Table) -> Option<serde_json::Value> {
        // The engine's view, with how far behind the live game it is.
        let mut json = serde_json::to_value(view(table)?).ok()?;
        if let Some(o) = json.as_object_mut() {
            o.insert("behind".into(), json!(table.behind));
        }
        Some(json)
    }

    fn report(&self, game_id: &str, table: &Table) -> Option<String> {
        view(table).map(|v| plain::report(game_id, v))
    }

    fn level(&self, config: &prost_types::Any) -> Option<&'static str> {
        // The typed configuration carries the difficulty.
        let c = tabletop::any::unpack::<xodus_pb::XodusConfig>(config)?;
        match xodus_pb::Difficulty::try_from(c.difficulty) {
            Ok(xodus_pb::Difficulty::Casual) => Some("casual"),
            Ok(xodus_pb::Difficulty::Hardened) => Some("hardened"),
            Ok(xodus_pb::Difficulty::Heroic) => Some("heroic"),
            _ => None,
        }
    }
}
