//! A VII Legio state read back into the engine's view (`legio_engine::View`):
//! the public board, the counts and only the viewer's own secrets. The
//! typed state (`legio.v1.LegioState`) is read by `legio-wire`; a server
//! that sends the view as JSON instead (`JsonState`) is read with serde.
//! Also the reverse, for tests and in-process play: a state as the server
//! would send it for an engine view.

use crate::table::{Decision, Offer, Outcome, Packed, Table, Typed};
use legio_engine::{View, Viewer};
use tabletop::pb;

/// The engine view a VII Legio state carries, or why it cannot be read.
pub fn view(state: &pb::GameState) -> Result<View, String> {
    match &state.detail {
        Some(pb::game_state::Detail::Json(j)) => {
            serde_json::from_str(&j.view_json).map_err(|e| format!("the VII Legio view does not read: {e}"))
        }
        Some(pb::game_state::Detail::GameState(_)) => {
            legio_wire::view(state).map_err(|e| format!("{e}; build xodus and xodus-server from the same commit"))
        }
        None => Err("the state carries no VII Legio view".into()),
    }
}

/// A state as a server would send it for `view` (the platform decision
/// built from the engine's: its options go to the deciding seat only),
/// for tests and in-process play.
pub fn table(view: View, seq: u64) -> Table {
    let pending = view.public.pending;
    let decision = match &view.decision {
        Some(d) => Decision {
            kind: d.kind.clone(),
            deciders: d.seat.map(u32::from).into_iter().collect(),
            prompt: d.prompt.clone(),
            options: d
                .options
                .iter()
                .map(|o| {
                    let any = tabletop::any::pack(&legio_wire::choice::typed_priced(&o.choice, &o.price));
                    Offer {
                        id: o.id.clone(),
                        label: o.label.clone(),
                        seats: d.seat.map(u32::from).into_iter().collect(),
                        detail: Some(Packed { type_url: any.type_url, value: any.value }),
                    }
                })
                .collect(),
        },
        None => Decision {
            kind: pending.kind().to_string(),
            deciders: pending.seat().map(u32::from).into_iter().collect(),
            prompt: String::new(),
            options: Vec::new(),
        },
    };
    let outcome = view.public.outcome.as_ref().map(|o| Outcome {
        kind: "ranked".into(),
        won: false,
        cause: o.cause.clone(),
        round: o.round,
        scores: o.scores.clone(),
        ranking: o.ranking.iter().map(|s| u32::from(*s)).collect(),
        truncated: o.truncated,
        winners: o.winners.iter().map(|s| u32::from(*s)).collect(),
    });
    let viewer_seat = match view.viewer {
        Viewer::Seat(s) => Some(u32::from(s)),
        Viewer::Spectator => None,
    };
    Table {
        game_type: legio_wire::GAME_TYPE.into(),
        seq,
        viewer_seat,
        decision,
        outcome,
        typed: Typed::new(view),
        clocks: Vec::new(),
        behind: None,
        muted: Vec::new(),
    }
}
