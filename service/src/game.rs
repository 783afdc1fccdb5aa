//! The hosting contract: what the server needs from a game, whatever the
//! game. The service, the store and the streams see games only through
//! [`HostedGame`] (one table in play) and [`GameType`] (how tables of one
//! game are set up and restored), found in a [`Registry`] by the game's
//! registered name. A game plugs in by implementing both and registering
//! its type; nothing else in the service changes (see ARCHITECTURE.md,
//! "How to add a game").
//!
//! The contract follows the decision model: one pending decision with
//! enumerated options, picked by id; a view per seat or for spectators
//! that hides what the rules hide; an outcome for co-op or competition; a
//! stable hash; which steps may be undone (the game's rule, not the
//! server's); and a state sampled afresh from the public view, which
//! resampled forks are made of.

use std::collections::BTreeMap;
use std::sync::Arc;
use tabletop::pb;

/// A seat number, from 0.
pub type Seat = u8;

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// A seated player.
    Seat(Seat),
    /// Anyone watching.
    Spectator,
}

/// Why a game refused a choice. The variants carry no text on purpose:
/// the service writes every refusal's words itself, so no game can leak a
/// seat's options or cards through an error message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The game has ended.
    #[error("the game is over; no more choices")]
    GameOver,
    /// The seat does not hold the pending decision (PERMISSION_DENIED).
    #[error("this seat does not hold the pending decision")]
    NotYourDecision,
    /// The option is not among the legal ones now (FAILED_PRECONDITION).
    #[error("the option is not among the legal ones of the pending decision")]
    Illegal,
}

/// Why a game type refused a setup or a stored configuration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// A CreateGame request's setup is wrong; the text names the field
    /// (INVALID_ARGUMENT).
    #[error("{0}")]
    InvalidSetup(String),
    /// A stored configuration cannot start a table (a store written by a
    /// newer release, or damaged).
    #[error("stored configuration refused: {0}")]
    StoredConfig(String),
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A cooperative game: the team won or lost.
    Team {
        /// Whether the players won.
        won: bool,
        /// Why it ended, snake-case.
        cause: String,
        /// The round it ended in.
        round: u32,
    },
    /// A competitive game: scores and places.
    Ranked {
        /// Each seat's score, in seat order.
        scores: Vec<i64>,
        /// Seats from first to last place (empty when truncated).
        ranking: Vec<Seat>,
        /// The seats that won (several when shared; none when nobody
        /// met the game's condition or the game was truncated).
        winners: Vec<Seat>,
        /// Cut by a safety limit rather than ended by the rules: no
        /// ranking and no winner.
        truncated: bool,
        /// Why it ended, snake-case.
        cause: String,
        /// The round it ended in.
        round: u32,
    },
}

impl Outcome {
    /// The wire form.
    pub fn to_wire(&self) -> pb::Outcome {
        match self {
            Outcome::Team { won, cause, round } => pb::Outcome {
                won: *won,
                cause: cause.clone(),
                round: *round,
                kind: pb::OutcomeKind::Team as i32,
                ..Default::default()
            },
            Outcome::Ranked { scores, ranking, winners, truncated, cause, round } => pb::Outcome {
                won: false,
                cause: cause.clone(),
                round: *round,
                scores: scores.clone(),
                ranking: ranking.iter().map(|&s| u32::from(s)).collect(),
                winners: winners.iter().map(|&s| u32::from(s)).collect(),
                truncated: *truncated,
                kind: pb::OutcomeKind::Ranked as i32,
            },
        }
    }
}

/// What an accepted choice did.
pub struct Applied {
    /// What happened, in order, in wire form (rendered once, shared by
    /// every subscriber).
    pub events: Vec<pb::Event>,
    /// The game's own word that nothing random or hidden happened, so its
    /// seat may take it back. The service also checks that the hidden part
    /// is unchanged and (for games with secrets per seat) that no seat
    /// learnt anything from it before it offers an undo.
    pub undoable: bool,
}

/// One table of a game in play. Deterministic: the same setup and the same
/// choices give the same states, hashes and events on any machine.
pub trait HostedGame: Send + Sync {
    /// Each seat's role as the lobby shows it (X-ODUS: the ship's name).
    fn seat_roles(&self) -> Vec<String>;
    /// How many seats the game has.
    fn seat_count(&self) -> usize {
        self.seat_roles().len()
    }
    /// The pending decision with its legal options (no options once over).
    fn decision(&self) -> pb::Decision;
    /// The seats the pending decision waits on, in increasing order: the
    /// decision's `deciders`, which a game may find without building labels.
    fn deciders(&self) -> Vec<Seat> {
        self.decision().deciders.iter().filter_map(|&s| Seat::try_from(s).ok()).collect()
    }
    /// Applies the option `option_id` for `seat`, or refuses it and
    /// changes nothing.
    fn apply(&mut self, seat: Seat, option_id: &str) -> Result<Applied, Refusal>;
    /// The game's own part of the state as `viewer` may see it: its typed
    /// state packed in an `Any` (or a JSON view, for a game without typed
    /// messages yet). The service builds the rest of `GameState`: id, seq,
    /// decision, outcome, hash, viewer and undo.
    fn view_detail(&self, viewer: Viewer) -> pb::game_state::Detail;
    /// The version of the game's typed messages (`GameState.schema_version`).
    fn schema_version(&self) -> u32;
    /// The registered name of the game's type (`GameState.game_type`).
    fn type_name(&self) -> &'static str;
    /// How it ended, once it has.
    fn outcome(&self) -> Option<Outcome>;
    /// The round now (for an outcome the server declares, e.g. abandoned).
    fn round(&self) -> u32;
    /// A hash of the whole state, hidden part included, stable across
    /// machines and compilers.
    fn state_hash(&self) -> u64;
    /// A hash of the hidden part alone (deck orders, hands, the
    /// generator's position...): a step that changes it is never undone.
    fn hidden_hash(&self) -> u64;
    /// A full state consistent with what `viewer` sees, everything hidden
    /// from it drawn afresh with `seed`: a determinization for a seat's
    /// search, or (as a spectator) a resampled fork's new hidden part.
    fn resampled(&self, viewer: Viewer, seed: u64) -> Box<dyn HostedGame>;
    /// A copy (a choice is applied on a copy, swapped in once durable).
    fn boxed_clone(&self) -> Box<dyn HostedGame>;
    /// True when the rules show every viewer the same state (no seat holds
    /// a secret of its own): a seat's state is then the spectator's with
    /// `viewer_seat` set, and the server renders one state per seq for all
    /// its viewers. False (the default) renders each viewer's own.
    fn same_state_for_every_viewer(&self) -> bool {
        false
    }
    /// The option the server takes for `seat` when its time runs out under
    /// a skip or forfeit policy: the game's own pass where it has one. The
    /// default is the first option offered to the seat.
    fn timeout_option(&self, seat: Seat) -> Option<String> {
        self.decision().options.into_iter().find(|o| o.seats.contains(&u32::from(seat))).map(|o| o.id)
    }
    /// The ids of what `seat` alone may see now (hand cards, objectives...),
    /// each one token as it appears in option ids and labels (`e29`). The
    /// conformance suite checks that no other viewer is shown them. Empty
    /// for a game whose seats hold no secrets of their own.
    fn secrets(&self, _seat: Seat) -> Vec<String> {
        Vec::new()
    }
    /// The game's configuration as its own typed message, packed, for the
    /// lobby (GameSummary.game_config; X-ODUS: xodus.v1.XodusConfig). It
    /// must not carry the seed. `None` for a game without one.
    fn config_detail(&self) -> Option<prost_types::Any> {
        None
    }
    /// A signal of the game's own said by `seat` at the table (its typed
    /// message, packed), in words any front-end can show; or, refused, why
    /// (a type the game does not know, a place not on the table...). The
    /// words must tell nothing the speaker's view does not. The default:
    /// the game has no signals.
    fn signal_words(&self, _seat: Seat, _signal: &prost_types::Any) -> Result<String, String> {
        Err("this game has no signals of its own; say it in text".into())
    }
}

/// A new table's setup as it is stored.
pub struct Setup {
    /// The configuration as a JSON object with its seed under "seed".
    pub config_json: String,
    /// The number of seats.
    pub seats: usize,
}

/// How the tables of one game are set up and restored.
pub trait GameType: Send + Sync {
    /// The registered name, stored with every game (`GameState.game_type`).
    fn name(&self) -> &'static str;
    /// The wire enum value, when the game has one.
    fn wire_kind(&self) -> pb::GameKind;
    /// Checks a CreateGame request and turns it into a stored setup;
    /// `random_seed` is used when the request gives none, and stored as it
    /// is under "seed" (the service tells a chosen seed from a drawn one by
    /// comparing them). The error says which field was wrong
    /// (INVALID_ARGUMENT).
    fn setup(&self, request: &pb::CreateGameRequest, random_seed: u64) -> Result<Setup, GameError>;
    /// The table a stored configuration starts from.
    fn start(&self, config_json: &str) -> Result<Box<dyn HostedGame>, GameError>;
    /// True for a cooperative game (the team wins or loses together): its
    /// clocks hand a seat out of time to an AI stand-in by default, and a
    /// seat cannot forfeit. False (the default) for a competitive game.
    fn cooperative(&self) -> bool {
        false
    }
    /// The game's content with names, for front-ends (GetCatalog). Empty
    /// for a game that shows no numbered content.
    fn catalog(&self) -> Vec<pb::CatalogEntry> {
        Vec::new()
    }
}

/// The games a server hosts, by registered name.
#[derive(Clone, Default)]
pub struct Registry {
    types: BTreeMap<&'static str, Arc<dyn GameType>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds a game type (replacing one of the same name).
    pub fn with(mut self, game: Arc<dyn GameType>) -> Registry {
        self.types.insert(game.name(), game);
        self
    }

    /// The game registered under `name`.
    pub fn get(&self, name: &str) -> Option<Arc<dyn GameType>> {
        self.types.get(name).cloned()
    }

    /// The game a CreateGame request asks for, or why none fits.
    pub fn for_request(&self, req: &pb::CreateGameRequest) -> Result<Arc<dyn GameType>, String> {
        let names = || self.types.keys().copied().collect::<Vec<_>>().join(", ");
        if !req.game_type.is_empty() {
            let game = self.get(&req.game_type).ok_or_else(|| {
                format!(
                    "game_type '{}' is not hosted here; hosted: {}",
                    req.game_type.chars().take(40).collect::<String>(),
                    names()
                )
            })?;
            if req.kind != 0 && req.kind != game.wire_kind() as i32 {
                return Err(format!("kind = {} does not match game_type '{}'", req.kind, game.name()));
            }
            return Ok(game);
        }
        self.types
            .values()
            .find(|g| req.kind != 0 && g.wire_kind() as i32 == req.kind)
            .cloned()
            .ok_or_else(|| format!("kind = {} is not supported; set game_type to one of: {}", req.kind, names()))
    }
}

/// The seed stored in a configuration JSON (a string or a number under
/// "seed"); 0 when there is none.
pub fn seed_of(config_json: &str) -> u64 {
    let value: serde_json::Value = serde_json::from_str(config_json).unwrap_or_default();
    match &value["seed"] {
        serde_json::Value::String(s) => s.parse().unwrap_or(0),
        v => v.as_u64().unwrap_or(0),
    }
}
