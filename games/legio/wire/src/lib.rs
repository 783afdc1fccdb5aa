//! # legio-wire: VII Legio between its rules engine and the API
//!
//! The server speaks the typed `legio.v1` package; the engine has its own
//! types. This crate maps one to the other: a CreateGame setup to an
//! engine configuration ([`config`], [`setup_from_request`]), the pending
//! decision with typed options ([`decision`]), outcomes ([`outcome`]),
//! events with their typed forms and English summaries ([`events`]), and
//! the view of one seat or a spectator as `legio.v1.LegioState`
//! ([`game_state`], [`state::legio_state`]): the public board, the sizes
//! of the hidden parts and only that seat's own secrets. It also reads a
//! typed state back into an engine view ([`state::read_view`], [`view`]),
//! which is how the AI commanders and the terminal client, both ordinary
//! gRPC clients, get a view to simulate or draw from what the server
//! sends. [`catalog::entries`] serves the content with names and rules
//! texts.

pub mod catalog;
pub mod choice;
pub mod enums;
pub mod events;
pub mod state;
pub mod step;
pub mod talk;

use legio_engine::{Decision, Game, GameConfig, Outcome, View, Viewer};
use tabletop::{any, legio_pb as l, pb};

pub use events::event;
pub use state::{SCHEMA_VERSION, legio_config};

/// The registered name of VII Legio on the service.
pub const GAME_TYPE: &str = "legio";

/// The commanders of a game created without a setup.
pub const DEFAULT_PLAYERS: u8 = 3;

/// Why a typed state does not read (shared by every game's wire crate).
pub use tabletop::typed::WireError;

/// Why a setup cannot start a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// `game_setup` holds a message of another type.
    #[error("game_setup holds '{0}'; VII Legio takes type.googleapis.com/legio.v1.LegioSetup")]
    WrongType(String),
    /// `game_setup` has the right type but its bytes do not decode.
    #[error("game_setup is a legio.v1.LegioSetup that does not decode: {0}")]
    Decode(String),
    /// The setup came as JSON.
    #[error("VII Legio takes its setup as game_setup (a packed legio.v1.LegioSetup), not setup_json")]
    SetupJson,
    /// A field holds a value the game cannot play.
    #[error("{field} {problem}")]
    Field {
        /// The field, as named in setup.proto.
        field: &'static str,
        /// What is wrong with it.
        problem: String,
    },
}

/// The longest round limit a setup may ask for.
pub const MAX_ROUND_LIMIT: u32 = 200;

/// An engine configuration from a typed setup, playing the current rules.
/// `random_seed` is used when the setup gives no seed.
pub fn config(setup: &l::LegioSetup, random_seed: u64) -> Result<GameConfig, SetupError> {
    let players = match setup.players {
        0 => DEFAULT_PLAYERS,
        n @ 2..=4 => n as u8,
        n => {
            return Err(SetupError::Field {
                field: "players",
                problem: format!("must be 2 to 4 (0 means 3), not {n}"),
            });
        }
    };
    let mut config = GameConfig::new(players, setup.seed.unwrap_or(random_seed));
    config.play_current_rules();
    if let Some(limit) = setup.round_limit {
        if !(1..=MAX_ROUND_LIMIT).contains(&limit) {
            return Err(SetupError::Field {
                field: "round_limit",
                problem: format!("must be 1 to {MAX_ROUND_LIMIT} (unset for the default), not {limit}"),
            });
        }
        config.round_limit = limit;
    }
    Ok(config)
}

/// An engine configuration from a CreateGame request: its `game_setup`
/// must be a packed `legio.v1.LegioSetup`; no setup gives 3 commanders.
pub fn setup_from_request(req: &pb::CreateGameRequest, random_seed: u64) -> Result<GameConfig, SetupError> {
    let setup = match &req.setup {
        Some(pb::create_game_request::Setup::GameSetup(packed)) => {
            // Any host may stand before the last '/', as protobuf's own
            // unpacking allows: the full name after it is what counts.
            let name = <l::LegioSetup as prost::Name>::full_name();
            if packed.type_url.rsplit('/').next() != Some(name.as_str()) {
                return Err(SetupError::WrongType(packed.type_url.chars().take(80).collect()));
            }
            <l::LegioSetup as prost::Message>::decode(packed.value.as_slice())
                .map_err(|e| SetupError::Decode(e.to_string()))?
        }
        Some(pb::create_game_request::Setup::SetupJson(_)) => return Err(SetupError::SetupJson),
        None => l::LegioSetup::default(),
    };
    config(&setup, random_seed)
}

/// The wire form of the pending decision, each option with its typed form
/// (`legio.v1.LegioChoice`) and its JSON.
pub fn decision(d: &Decision) -> pb::Decision {
    let seats: Vec<u32> = d.seat.map(u32::from).into_iter().collect();
    pb::Decision {
        kind: d.kind.clone(),
        deciders: seats.clone(),
        prompt: d.prompt.clone(),
        options: d
            .options
            .iter()
            .map(|o| pb::ChoiceOption {
                id: o.id.clone(),
                label: o.label.clone(),
                seats: seats.clone(),
                payload_json: serde_json::to_string(&o.choice).unwrap_or_default(),
                detail: Some(any::pack(&choice::typed_priced(&o.choice, &o.price))),
            })
            .collect(),
    }
}

/// The wire form of an outcome: a ranked result, PC as scores.
pub fn outcome(o: &Outcome) -> pb::Outcome {
    pb::Outcome {
        won: false,
        cause: o.cause.clone(),
        round: o.round,
        scores: o.scores.clone(),
        ranking: o.ranking.iter().map(|&s| u32::from(s)).collect(),
        kind: pb::OutcomeKind::Ranked as i32,
        truncated: o.truncated,
        winners: o.winners.iter().map(|&s| u32::from(s)).collect(),
    }
}

/// The state of `game` as `viewer` sees it. The decision's options go to
/// its decider only; other seats and spectators get its kind, prompt and
/// decider. `game_id`, `seq` and `can_undo` are left for the service.
pub fn game_state(game: &Game, viewer: Viewer) -> pb::GameState {
    let view = game.view(viewer);
    let d = game.decision();
    let mut wire = decision(&d);
    if view.decision.is_none() {
        wire.options.clear();
    }
    pb::GameState {
        game_id: String::new(),
        seq: 0,
        decision: Some(wire),
        outcome: game.outcome().map(outcome),
        state_hash: game.state_hash(),
        viewer_seat: match viewer {
            Viewer::Seat(s) => Some(u32::from(s)),
            Viewer::Spectator => None,
        },
        can_undo: false,
        game_type: GAME_TYPE.to_string(),
        schema_version: SCHEMA_VERSION,
        clocks: Vec::new(),
        detail: Some(pb::game_state::Detail::GameState(any::pack(&state::legio_state(&view)))),
    }
}

/// The engine view a game state carries, read from its typed state.
pub fn view(state: &pb::GameState) -> Result<View, WireError> {
    let typed = match &state.detail {
        Some(pb::game_state::Detail::GameState(packed)) => any::unpack::<l::LegioState>(packed),
        _ => None,
    };
    state::read_view(&typed.ok_or(WireError::NotThisGame("legio.v1.LegioState"))?)
}
