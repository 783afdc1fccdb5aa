//! # xodus-wire: X-ODUS between its rules engine and the API
//!
//! The server speaks the typed `xodus.v1` package; the engine has its own
//! types. This crate maps one to the other: the pending decision with typed
//! options, events with their typed forms, outcomes, and the whole view as
//! `xodus.v1.XodusState` ([`state::xodus_state`]). It also reads a typed
//! state back into an engine view ([`state::view_back`]), which is how the
//! AI captains and the terminal client, both ordinary gRPC clients, get an
//! engine view to simulate or draw from what the server sends.

pub mod catalog;
pub mod choice;
pub mod describe;
pub mod enums;
pub mod events;
pub mod state;
pub mod step;
pub mod talk;

use tabletop::{any, pb};
use xodus_engine::{Decision, Game, Outcome, View, Viewer};

pub use events::event;
pub use state::SCHEMA_VERSION;

/// Why a typed state does not read (shared by every game's wire crate).
pub use tabletop::typed::WireError;

/// The registered name of X-ODUS on the service.
pub const GAME_TYPE: &str = "xodus";

/// The wire form of the pending decision, each option with its typed form.
pub fn decision(d: &Decision) -> pb::Decision {
    pb::Decision {
        kind: d.kind.as_str().to_string(),
        deciders: d.deciders.iter().map(|&s| u32::from(s)).collect(),
        prompt: d.prompt.clone(),
        options: d
            .options
            .iter()
            .map(|o| {
                let payload_json = serde_json::to_string(&o.choice).unwrap_or_default();
                pb::ChoiceOption {
                    id: o.id.clone(),
                    label: o.label.clone(),
                    seats: o.seats.iter().map(|&s| u32::from(s)).collect(),
                    detail: Some(any::pack(&choice::typed_with_json(&o.choice, &payload_json))),
                    payload_json,
                }
            })
            .collect(),
    }
}

/// The wire form of an outcome (X-ODUS is cooperative: a team result).
pub fn outcome(o: &Outcome) -> pb::Outcome {
    pb::Outcome {
        won: o.won,
        cause: o.cause.clone(),
        round: o.round,
        kind: pb::OutcomeKind::Team as i32,
        ..Default::default()
    }
}

/// An outcome read back.
pub fn outcome_back(o: &pb::Outcome) -> Outcome {
    Outcome { won: o.won, cause: o.cause.clone(), round: o.round }
}

/// The state of `game` at sequence number `seq` as `viewer` sees it
/// (`can_undo` is left false: only the server knows the history).
pub fn game_state(game_id: &str, seq: u64, game: &Game, viewer: Viewer) -> pb::GameState {
    let view = game.view(viewer);
    pb::GameState {
        game_id: game_id.to_string(),
        seq,
        decision: Some(decision(&view.decision)),
        outcome: game.outcome().as_ref().map(outcome),
        state_hash: game.state_hash(),
        viewer_seat: match viewer {
            Viewer::Seat(s) => Some(u32::from(s)),
            Viewer::Spectator => None,
        },
        can_undo: false,
        game_type: GAME_TYPE.to_string(),
        schema_version: SCHEMA_VERSION,
        clocks: Vec::new(),
        detail: Some(pb::game_state::Detail::GameState(any::pack(&state::xodus_state(&view)))),
    }
}

/// The engine view a game state carries, read from its typed state.
pub fn view(state: &pb::GameState) -> Result<View, WireError> {
    let typed = any::state_detail::<tabletop::xodus_pb::XodusState>(state)
        .ok_or(WireError::NotThisGame("xodus.v1.XodusState"))?;
    let viewer = match state.viewer_seat {
        Some(s) => Viewer::Seat(enums::small(s, "viewer_seat")?),
        None => Viewer::Spectator,
    };
    state::view_back(&typed, viewer, state.seq, state.outcome.as_ref().map(outcome_back))
}
