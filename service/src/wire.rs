//! Proto conversion for the service: requests are checked and turned into
//! engine and model values here (every malformed field becomes
//! INVALID_ARGUMENT with a sentence naming it), and the server's records are
//! turned into lobby messages. Engine-to-wire conversions shared with the
//! clients live in the root crate (`xodus::convert`).

use crate::error::ServiceError;
use crate::model::{ClaimantKind, EntryKind, EntryRecord, GameRecord, OpenTo, Presence, Status};
use xodus::pb;
use xodus_engine::{AllyKind, Choice, Difficulty, Game, GameConfig, ShipKind};

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
        return Err(ServiceError::InvalidArgument(format!(
            "seats lists {} entries but the game has {n} seats",
            raw.len()
        )));
    }
    let mut out = Vec::with_capacity(n);
    for (i, &v) in raw.iter().enumerate() {
        out.push(match pb::SeatOpenTo::try_from(v) {
            Ok(pb::SeatOpenTo::Unspecified | pb::SeatOpenTo::Human) => OpenTo::Human,
            Ok(pb::SeatOpenTo::Ai) => OpenTo::Ai,
            Ok(pb::SeatOpenTo::Any) => OpenTo::Any,
            Err(_) => return Err(ServiceError::InvalidArgument(format!("seats[{i}] = {v} is not a SeatOpenTo value"))),
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
        Err(_) => Err(ServiceError::InvalidArgument(format!("claimant = {v} is not a Claimant value"))),
    }
}

fn names<T: Copy>(all: &[T], f: fn(T) -> &'static str) -> String {
    all.iter().map(|&x| f(x)).collect::<Vec<_>>().join(", ")
}

/// Turns a CreateGame request into an engine config and the seat rules.
/// `random_seed` is used when the request gives no seed.
pub fn create_request(
    req: &pb::CreateGameRequest,
    random_seed: u64,
) -> Result<(GameConfig, Vec<OpenTo>), ServiceError> {
    match pb::GameKind::try_from(req.kind) {
        Ok(pb::GameKind::Xodus) => {}
        _ => {
            return Err(ServiceError::InvalidArgument(format!(
                "kind = {} is not supported; use GAME_KIND_XODUS",
                req.kind
            )));
        }
    }
    let Some(pb::create_game_request::Setup::Xodus(x)) = &req.setup else {
        return Err(ServiceError::InvalidArgument("setup.xodus is required for GAME_KIND_XODUS".into()));
    };
    let difficulty = if x.difficulty.is_empty() {
        Difficulty::Casual
    } else {
        Difficulty::parse(&x.difficulty).ok_or_else(|| {
            ServiceError::InvalidArgument(format!(
                "difficulty '{}' is unknown; use one of: {}",
                x.difficulty.chars().take(40).collect::<String>(),
                names(&Difficulty::ALL, Difficulty::as_str)
            ))
        })?
    };
    let seed = x.seed.unwrap_or(random_seed);
    let mut config = if x.ships.is_empty() {
        if !(3..=4).contains(&x.ship_count) {
            return Err(ServiceError::InvalidArgument(format!(
                "ship_count must be 3 or 4 when no ships are listed, not {}",
                x.ship_count
            )));
        }
        GameConfig::random(seed, x.ship_count as usize, difficulty)
    } else {
        if x.ship_count != 0 && x.ship_count as usize != x.ships.len() {
            return Err(ServiceError::InvalidArgument(format!(
                "ship_count is {} but {} ships are listed",
                x.ship_count,
                x.ships.len()
            )));
        }
        let mut ships = Vec::new();
        for (i, s) in x.ships.iter().enumerate() {
            ships.push(ShipKind::parse(s).ok_or_else(|| {
                ServiceError::InvalidArgument(format!(
                    "ships[{i}] = '{}' is unknown; use one of: {}",
                    s.chars().take(40).collect::<String>(),
                    names(&ShipKind::ALL, ShipKind::as_str)
                ))
            })?);
        }
        let allies = GameConfig::random(seed, ships.len().clamp(3, 4), difficulty).allies;
        GameConfig {
            ships,
            difficulty,
            allies,
            seed,
            nightmare: None,
            legacy_reinforcements: None,
            rules_revision: None,
        }
    };
    if !x.allies.is_empty() {
        let mut allies = Vec::new();
        for (i, a) in x.allies.iter().enumerate() {
            allies.push(AllyKind::parse(a).ok_or_else(|| {
                ServiceError::InvalidArgument(format!(
                    "allies[{i}] = '{}' is unknown; use one of: {}",
                    a.chars().take(40).collect::<String>(),
                    names(&AllyKind::ALL, AllyKind::as_str)
                ))
            })?);
        }
        config.allies = allies;
    }
    config.nightmare = Some(x.nightmare);
    config.play_current_rules();
    config.validate().map_err(|e| ServiceError::InvalidArgument(e.to_string()))?;
    let seats = seats(&req.seats, config.ships.len())?;
    Ok((config, seats))
}

/// What a SubmitChoice request picks, as an option id.
pub fn choice_id(choice: &Option<pb::submit_choice_request::Choice>) -> Result<String, ServiceError> {
    use pb::submit_choice_request::Choice as C;
    let id = match choice {
        Some(C::OptionId(id)) => id.clone(),
        Some(C::ChoiceJson(json)) => {
            if json.len() > MAX_CHOICE_LEN {
                return Err(ServiceError::InvalidArgument(format!(
                    "choice_json is longer than {MAX_CHOICE_LEN} bytes"
                )));
            }
            let c: Choice = serde_json::from_str(json).map_err(|e| {
                ServiceError::InvalidArgument(format!(
                    "choice_json does not parse as a choice ({e}); send an option's payload_json as given"
                ))
            })?;
            c.id()
        }
        None => return Err(ServiceError::InvalidArgument("set option_id or choice_json".into())),
    };
    if id.is_empty() {
        return Err(ServiceError::InvalidArgument("option_id is empty; send one of the offered ids".into()));
    }
    if id.len() > MAX_CHOICE_LEN {
        return Err(ServiceError::InvalidArgument(format!("option_id is longer than {MAX_CHOICE_LEN} bytes")));
    }
    Ok(id)
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
    game: &Game,
    seq: u64,
    seed: Option<u64>,
) -> pb::GameSummary {
    let config = game.config();
    pb::GameSummary {
        game_id: record.id.clone(),
        kind: pb::GameKind::Xodus as i32,
        status: status(record.status) as i32,
        seats: record
            .seats
            .iter()
            .map(|s| pb::SeatInfo {
                seat: u32::from(s.seat),
                role: config.ships.get(usize::from(s.seat)).map(|k| k.as_str().to_string()).unwrap_or_default(),
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
        config_json: config_json(record, seed),
        outcome: match record.status {
            Status::Abandoned => Some(abandoned_outcome(game)),
            _ => game.outcome().as_ref().map(xodus::convert::outcome),
        },
        idle_timeout_seconds: record.idle_timeout_s,
        resampled: !record.resamples.is_empty(),
        ended_unix_ms: record.ended_ms.unwrap_or(0),
    }
}

/// The outcome of a game the server ended as abandoned.
pub fn abandoned_outcome(game: &Game) -> pb::Outcome {
    pb::Outcome { won: false, cause: "abandoned".into(), round: game.view(xodus_engine::Viewer::Spectator).round }
}

/// A history line on the wire.
pub fn entry(e: &EntryRecord) -> pb::HistoryEntry {
    pb::HistoryEntry {
        seq: e.seq,
        kind: match e.kind {
            EntryKind::Choice => pb::EntryKind::Choice,
            EntryKind::Undo => pb::EntryKind::Undo,
        } as i32,
        seat: u32::from(e.seat),
        option_id: e.option_id.clone(),
        at_unix_ms: e.at_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(setup: pb::XodusSetup) -> pb::CreateGameRequest {
        pb::CreateGameRequest {
            kind: pb::GameKind::Xodus as i32,
            seats: vec![],
            setup: Some(pb::create_game_request::Setup::Xodus(setup)),
        }
    }

    #[test]
    fn random_setup_uses_the_seed() {
        let r = req(pb::XodusSetup { ship_count: 4, seed: Some(7), ..Default::default() });
        let (c, seats) = create_request(&r, 99).expect("valid");
        assert_eq!(c.ships.len(), 4);
        assert_eq!(c.seed, 7);
        assert_eq!(seats, vec![OpenTo::Human; 4]);
        assert_eq!(create_request(&r, 5).expect("valid").0, c, "same seed, same config");
    }

    #[test]
    fn chosen_setup_and_refusals() {
        let mut x = pb::XodusSetup {
            ships: vec!["warship".into(), "explorer".into(), "proto_ship".into()],
            difficulty: "heroic".into(),
            allies: vec!["mercenary".into(), "smuggler".into()],
            seed: None,
            ship_count: 0,
            nightmare: false,
        };
        let (c, _) = create_request(&req(x.clone()), 3).expect("valid");
        assert_eq!(c.seed, 3);
        assert_eq!(c.difficulty, Difficulty::Heroic);
        assert!(!c.nightmare(), "Heroic alone has no permanent Avatar move (p. 19)");
        assert!(!c.legacy_reinforcements(), "new games: only the Avatar spaces reinforce (p. 17-18)");
        assert_eq!(c.rules_revision(), xodus_engine::RULES_REVISION, "new games play the current rules");
        x.nightmare = true;
        assert!(create_request(&req(x.clone()), 3).expect("valid").0.nightmare());
        x.nightmare = false;
        x.ships[1] = "warship".into();
        assert!(matches!(create_request(&req(x.clone()), 3), Err(ServiceError::InvalidArgument(_))));
        x.ships[1] = "rowboat".into();
        let err = create_request(&req(x.clone()), 3).expect_err("unknown ship");
        assert!(err.to_string().contains("rowboat"), "{err}");
        let bad_count = pb::XodusSetup { ship_count: 5, ..Default::default() };
        assert!(create_request(&req(bad_count), 1).is_err());
        let mut no_kind = req(pb::XodusSetup { ship_count: 3, ..Default::default() });
        no_kind.kind = 0;
        assert!(create_request(&no_kind, 1).is_err());
    }

    #[test]
    fn seats_pad_and_refuse() {
        assert_eq!(seats(&[2], 3).expect("ok"), vec![OpenTo::Ai, OpenTo::Human, OpenTo::Human]);
        assert!(seats(&[1, 1, 1, 1], 3).is_err());
        assert!(seats(&[42], 3).is_err());
    }

    #[test]
    fn choice_ids() {
        use pb::submit_choice_request::Choice as C;
        assert_eq!(choice_id(&Some(C::OptionId("end_turn".into()))).expect("ok"), "end_turn");
        assert_eq!(choice_id(&Some(C::ChoiceJson("\"end_turn\"".into()))).expect("ok"), "end_turn");
        assert!(choice_id(&Some(C::ChoiceJson("{nope".into()))).is_err());
        assert!(choice_id(&Some(C::OptionId(String::new()))).is_err());
        assert!(choice_id(&None).is_err());
    }
}
