//! Proto conversion for the service, for any game: requests are checked
//! and turned into model values here (every malformed field becomes
//! INVALID_ARGUMENT with a sentence naming it), and the server's records are
//! turned into lobby messages. A game's own setup is checked by its
//! [`crate::game::GameType`].

use crate::error::ServiceError;
use crate::game::HostedGame;
use crate::model::{ClaimantKind, EntryKind, EntryRecord, GameRecord, OpenTo, Presence, Status};
use tabletop::pb;

/// Longest option id or choice JSON accepted.
pub const MAX_CHOICE_LEN: usize = 4096;

/// A model seat rule as its wire enum.
pub fn open_to(o: OpenTo) -> pb::SeatOpenTo {
    match o {
        OpenTo::Human => pb::SeatOpenTo::Human,
        OpenTo::Ai => pb::SeatOpenTo::Ai,
        OpenTo::Any => pb::SeatOpenTo::Any,
    }
}

/// A model status as its wire enum.
pub fn status(s: Status) -> pb::GameStatus {
    match s {
        Status::Open => pb::GameStatus::Open,
        Status::Playing => pb::GameStatus::Playing,
        Status::Finished => pb::GameStatus::Finished,
        Status::Abandoned => pb::GameStatus::Abandoned,
    }
}

/// Parses `seats` of CreateGame/ForkGame for a game of `n` seats: unset
/// entries mean HUMAN, missing ones too.
pub fn seats(raw: &[i32], n: usize) -> Result<Vec<OpenTo>, ServiceError> {
    if raw.len() > n {
        return Err(ServiceError::BadRequest(format!("seats lists {} entries but the game has {n} seats", raw.len())));
    }
    let mut out = Vec::with_capacity(n);
    for (i, &v) in raw.iter().enumerate() {
        out.push(match pb::SeatOpenTo::try_from(v) {
            Ok(pb::SeatOpenTo::Unspecified | pb::SeatOpenTo::Human) => OpenTo::Human,
            Ok(pb::SeatOpenTo::Ai) => OpenTo::Ai,
            Ok(pb::SeatOpenTo::Any) => OpenTo::Any,
            Err(_) => return Err(ServiceError::BadRequest(format!("seats[{i}] = {v} is not a SeatOpenTo value"))),
        });
    }
    out.resize(n, OpenTo::Human);
    Ok(out)
}

/// Parses a claimant kind (unset means HUMAN).
pub fn claimant(v: i32) -> Result<ClaimantKind, ServiceError> {
    match pb::Claimant::try_from(v) {
        Ok(pb::Claimant::Unspecified | pb::Claimant::Human) => Ok(ClaimantKind::Human),
        Ok(pb::Claimant::Ai) => Ok(ClaimantKind::Ai),
        Err(_) => Err(ServiceError::BadRequest(format!("claimant = {v} is not a Claimant value"))),
    }
}

/// What a SubmitChoice request picks.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
    /// An option's id.
    Id(String),
    /// An option's payload, as JSON (matched against the offered options'
    /// `payload_json`).
    Payload(serde_json::Value),
}

/// What a seat asks to say.
#[derive(Clone, Debug)]
pub struct Saying {
    /// Who hears it.
    pub audience: crate::model::Audience,
    /// Plain text (may be empty with a signal).
    pub text: String,
    /// A signal of the game's own, packed.
    pub signal: Option<prost_types::Any>,
    /// The line states the speaker's plan.
    pub intent: bool,
}

/// Checks a Say request's audience and wraps what it says (the text and
/// signal are checked by the manager).
pub fn saying(
    audience: i32,
    to_seat: Option<u32>,
    text: String,
    signal: Option<prost_types::Any>,
    intent: bool,
) -> Result<Saying, ServiceError> {
    use crate::model::Audience;
    let audience = match (pb::TalkAudience::try_from(audience), to_seat) {
        (Ok(pb::TalkAudience::Seat), Some(s)) => Audience::Seat(
            u8::try_from(s).map_err(|_| ServiceError::BadRequest(format!("to_seat {s} does not exist")))?,
        ),
        (Ok(pb::TalkAudience::Seat), None) => {
            return Err(ServiceError::BadRequest("audience SEAT needs to_seat: the seat to talk to".into()));
        }
        (Ok(_), Some(_)) => {
            return Err(ServiceError::BadRequest("to_seat is for audience SEAT; leave it unset".into()));
        }
        (Ok(pb::TalkAudience::Unspecified | pb::TalkAudience::Table), None) => Audience::Table,
        (Ok(pb::TalkAudience::Team), None) => Audience::Team,
        (Err(_), _) => return Err(ServiceError::BadRequest(format!("audience = {audience} is not a TalkAudience"))),
    };
    Ok(Saying { audience, text, signal, intent })
}

/// Checks what a SubmitChoice request picks.
pub fn pick(choice: &Option<pb::submit_choice_request::Choice>) -> Result<Pick, ServiceError> {
    use pb::submit_choice_request::Choice as C;
    let id = match choice {
        Some(C::OptionId(id)) => id.clone(),
        Some(C::ChoiceJson(json)) => {
            if json.len() > MAX_CHOICE_LEN {
                return Err(ServiceError::BadRequest(format!("choice_json is longer than {MAX_CHOICE_LEN} bytes")));
            }
            let value = serde_json::from_str(json).map_err(|e| {
                ServiceError::BadRequest(format!(
                    "choice_json is not JSON ({e}); send an option's payload_json as given"
                ))
            })?;
            return Ok(Pick::Payload(value));
        }
        None => return Err(ServiceError::BadRequest("set option_id or choice_json".into())),
    };
    if id.is_empty() {
        return Err(ServiceError::BadRequest("option_id is empty; send one of the offered ids".into()));
    }
    if id.len() > MAX_CHOICE_LEN {
        return Err(ServiceError::BadRequest(format!("option_id is longer than {MAX_CHOICE_LEN} bytes")));
    }
    Ok(Pick::Id(id))
}

/// The id of the offered option whose payload is `payload`.
pub fn option_with_payload(decision: &pb::Decision, payload: &serde_json::Value) -> Result<String, ServiceError> {
    decision
        .options
        .iter()
        .find(|o| serde_json::from_str::<serde_json::Value>(&o.payload_json).ok().as_ref() == Some(payload))
        .map(|o| o.id.clone())
        .ok_or_else(|| {
            ServiceError::NotNow(
                "choice_json is none of the offered options' payload_json; fetch the decision and pick one".into(),
            )
        })
}

/// The configuration as the wire shows it: the record's JSON with the seed
/// replaced by `seed` as a decimal string, or removed when it is `None`.
pub fn config_json(record: &GameRecord, seed: Option<u64>) -> String {
    let Ok(serde_json::Value::Object(mut config)) = serde_json::from_str(&record.config_json) else {
        return "{}".into();
    };
    match seed {
        Some(seed) => config.insert("seed".into(), serde_json::Value::String(seed.to_string())),
        None => config.remove("seed"),
    };
    serde_json::Value::Object(config).to_string()
}

/// The lobby view of a game; `seed` only when the caller may know it.
pub fn summary(
    record: &GameRecord,
    presence: &[Presence],
    game: &dyn HostedGame,
    kind: pb::GameKind,
    seq: u64,
    seed: Option<u64>,
) -> pb::GameSummary {
    let roles = game.seat_roles();
    pb::GameSummary {
        game_id: record.id.clone(),
        kind: kind as i32,
        game_type: record.game_type.clone(),
        status: status(record.status) as i32,
        seats: record
            .seats
            .iter()
            .map(|s| pb::SeatInfo {
                seat: u32::from(s.seat),
                role: roles.get(usize::from(s.seat)).cloned().unwrap_or_default(),
                open_to: open_to(s.open_to) as i32,
                claimed: s.claim.is_some(),
                claimed_by: match s.claim.as_ref().map(|c| c.by) {
                    None => pb::Claimant::Unspecified,
                    Some(ClaimantKind::Human) => pb::Claimant::Human,
                    Some(ClaimantKind::Ai) => pb::Claimant::Ai,
                } as i32,
                idle: presence.get(usize::from(s.seat)).is_some_and(|p| p.idle),
                stand_in: presence.get(usize::from(s.seat)).is_some_and(|p| p.stand_in.is_some()),
            })
            .collect(),
        seq,
        created_unix_ms: record.created_ms,
        forked_from: record.forked_from.as_ref().map(|f| f.0.clone()).unwrap_or_default(),
        forked_at_seq: record.forked_from.as_ref().map(|f| f.1).unwrap_or(0),
        seed,
        // Deprecated in the API, still sent for older clients.
        #[allow(deprecated)]
        config_json: config_json(record, seed),
        game_config: game.config_detail(),
        outcome: match record.status {
            Status::Abandoned => Some(abandoned_outcome(game)),
            _ => game.outcome().map(|o| {
                let forfeited = record.clock.as_ref().map_or(&[][..], |c| c.forfeited.as_slice());
                crate::clock::with_forfeits(o.to_wire(), forfeited)
            }),
        },
        clock: record.clock.as_ref().map(crate::clock::ClockRecord::to_wire),
        // Filled in by the manager (`manager/spectators.rs`).
        spectator_policy: 0,
        spectator_delay: 0,
        idle_timeout_seconds: record.idle_timeout_s,
        created_at: Some(timestamp(record.created_ms)),
        ended_at: record.ended_ms.map(timestamp),
        resampled: !record.resamples.is_empty(),
        // A resampling drew the fork's own hidden part from a server seed.
        seed_chosen: record.seed_chosen && record.resamples.is_empty(),
        ended_unix_ms: record.ended_ms.unwrap_or(0),
    }
}

pub use crate::clock::timestamp;

/// The outcome of a game the server ended as abandoned.
pub fn abandoned_outcome(game: &dyn HostedGame) -> pb::Outcome {
    pb::Outcome { won: false, cause: "abandoned".into(), round: game.round(), ..Default::default() }
}

/// A history line on the wire; its option id only when `shown` (see
/// `secrecy::choice_shown`).
pub fn entry(e: &EntryRecord, shown: bool) -> pb::HistoryEntry {
    pb::HistoryEntry {
        seq: e.seq,
        kind: match e.kind {
            EntryKind::Choice => pb::EntryKind::Choice,
            EntryKind::Undo => pb::EntryKind::Undo,
        } as i32,
        seat: u32::from(e.seat),
        option_id: if shown || e.kind == EntryKind::Undo { e.option_id.clone() } else { String::new() },
        at_unix_ms: e.at_ms,
        at: Some(timestamp(e.at_ms)),
        played_by: match e.played_by {
            None => pb::PlayedBy::Unspecified,
            Some(crate::model::PlayedBy::Holder) => pb::PlayedBy::Holder,
            Some(crate::model::PlayedBy::StandIn) => pb::PlayedBy::StandIn,
            Some(crate::model::PlayedBy::Server) => pb::PlayedBy::Server,
        } as i32,
        // GetHistory fills these from a replay; a stream sends the events
        // beside the entry.
        label: String::new(),
        events: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_timestamps() {
        assert_eq!(timestamp(1_500), prost_types::Timestamp { seconds: 1, nanos: 500_000_000 });
        assert_eq!(timestamp(-1), prost_types::Timestamp { seconds: -1, nanos: 999_000_000 });
    }

    #[test]
    fn seats_pad_and_refuse() {
        assert_eq!(seats(&[2], 3).expect("ok"), vec![OpenTo::Ai, OpenTo::Human, OpenTo::Human]);
        assert!(seats(&[1, 1, 1, 1], 3).is_err());
        assert!(seats(&[42], 3).is_err());
    }

    #[test]
    fn picks_and_payloads() {
        use pb::submit_choice_request::Choice as C;
        assert_eq!(pick(&Some(C::OptionId("end_turn".into()))).expect("ok"), Pick::Id("end_turn".into()));
        let json = pick(&Some(C::ChoiceJson("\"end_turn\"".into()))).expect("ok");
        assert_eq!(json, Pick::Payload(serde_json::json!("end_turn")));
        assert!(pick(&Some(C::ChoiceJson("{nope".into()))).is_err());
        assert!(pick(&Some(C::OptionId(String::new()))).is_err());
        assert!(pick(&None).is_err());
        let decision = pb::Decision {
            options: vec![pb::ChoiceOption {
                id: "jump:1,0".into(),
                payload_json: "{\"jump\":{\"hex\":{\"q\":1,\"r\":0}}}".into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let payload = serde_json::json!({"jump": {"hex": {"r": 0, "q": 1}}});
        assert_eq!(option_with_payload(&decision, &payload).expect("found"), "jump:1,0", "key order does not matter");
        assert!(option_with_payload(&decision, &serde_json::json!("end_turn")).is_err());
    }
}
