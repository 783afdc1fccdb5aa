//! Conversions between the engine's types and the wire types: the pending
//! decision, events, outcomes and game states go out; views and choice
//! payloads come back in (for clients that want the engine's typed view).
//! JSON carries the engine's own serde shapes; the typed proto fields carry
//! the stable parts every front-end needs.

use crate::pb;
use xodus_engine::{Choice, Decision, Event, Game, Outcome, View, Viewer};

/// The wire form of the pending decision.
pub fn decision(d: &Decision) -> pb::Decision {
    pb::Decision {
        kind: d.kind.as_str().to_string(),
        deciders: d.deciders.iter().map(|&s| u32::from(s)).collect(),
        prompt: d.prompt.clone(),
        options: d
            .options
            .iter()
            .map(|o| pb::ChoiceOption {
                id: o.id.clone(),
                label: o.label.clone(),
                seats: o.seats.iter().map(|&s| u32::from(s)).collect(),
                payload_json: serde_json::to_string(&o.choice).unwrap_or_default(),
            })
            .collect(),
    }
}

/// The wire form of an event: its snake-case kind, its summary, its JSON.
pub fn event(e: &Event) -> pb::Event {
    let value = serde_json::to_value(e).unwrap_or_default();
    let kind = value.get("event").and_then(|k| k.as_str()).unwrap_or_default().to_string();
    pb::Event { kind, summary: e.summary(), event_json: value.to_string() }
}

/// The wire form of an outcome.
pub fn outcome(o: &Outcome) -> pb::Outcome {
    pb::Outcome { won: o.won, cause: o.cause.clone(), round: o.round, ..Default::default() }
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
        detail: Some(pb::game_state::Detail::Xodus(pb::XodusState {
            round: view.round,
            phase: view.phase.as_str().to_string(),
            view_json: serde_json::to_string(&view).unwrap_or_default(),
        })),
    }
}

/// The engine's view carried by a game state (for clients that use the
/// engine's types), or `None` when it is not an X-ODUS state or the JSON
/// does not parse.
pub fn view(state: &pb::GameState) -> Option<View> {
    match &state.detail {
        Some(pb::game_state::Detail::Xodus(x)) => serde_json::from_str(&x.view_json).ok(),
        Some(pb::game_state::Detail::Json(_)) | None => None,
    }
}

/// The engine's choice carried by an option's payload, if it parses.
pub fn choice(option: &pb::ChoiceOption) -> Option<Choice> {
    serde_json::from_str(&option.payload_json).ok()
}
