//! X-ODUS: Rise of the Corruption, as the server hosts it: the game's
//! adapter to `tabletop_service`'s hosting contract. It checks the X-ODUS
//! setup of a CreateGame request, starts tables from stored
//! configurations, and wraps the engine's `Game` in the contract.

use tabletop::{any, pb, xodus_pb};
use tabletop_service::game::{Applied, GameError, GameType, HostedGame, Outcome, Refusal, Seat, Setup, Viewer};
use xodus_engine::{AllyKind, Difficulty, Game, GameConfig, RuleError, ShipKind};

/// The X-ODUS game type.
pub struct Xodus;

fn names<T: Copy>(all: &[T], f: fn(T) -> &'static str) -> String {
    all.iter().map(|&x| f(x)).collect::<Vec<_>>().join(", ")
}

/// Turns a CreateGame request's X-ODUS setup into an engine config.
/// `random_seed` is used when the request gives no seed.
pub fn config(req: &pb::CreateGameRequest, random_seed: u64) -> Result<GameConfig, String> {
    let x = match &req.setup {
        Some(pb::create_game_request::Setup::GameSetup(packed)) => {
            packed.to_msg::<xodus_pb::XodusSetup>().map_err(|e| {
                let url = packed.type_url.chars().take(80).collect::<String>();
                if url.ends_with("/xodus.v1.XodusSetup") {
                    format!("game_setup holds an xodus.v1.XodusSetup whose bytes do not decode: {e}")
                } else {
                    format!("game_setup holds '{url}'; X-ODUS takes type.googleapis.com/xodus.v1.XodusSetup")
                }
            })?
        }
        Some(pb::create_game_request::Setup::SetupJson(_)) => {
            return Err("X-ODUS takes its setup as game_setup (a packed xodus.v1.XodusSetup), not setup_json".into());
        }
        None => xodus_pb::XodusSetup { ship_count: 3, ..Default::default() },
    };
    let x = &x;
    let difficulty = if x.difficulty.is_empty() {
        Difficulty::Casual
    } else {
        Difficulty::parse(&x.difficulty).ok_or_else(|| {
            format!(
                "difficulty '{}' is unknown; use one of: {}",
                x.difficulty.chars().take(40).collect::<String>(),
                names(&Difficulty::ALL, Difficulty::as_str)
            )
        })?
    };
    let seed = x.seed.unwrap_or(random_seed);
    let mut config = if x.ships.is_empty() {
        if !(3..=4).contains(&x.ship_count) {
            return Err(format!("ship_count must be 3 or 4 when no ships are listed, not {}", x.ship_count));
        }
        GameConfig::random(seed, x.ship_count as usize, difficulty)
    } else {
        if x.ship_count != 0 && x.ship_count as usize != x.ships.len() {
            return Err(format!("ship_count is {} but {} ships are listed", x.ship_count, x.ships.len()));
        }
        let mut ships = Vec::new();
        for (i, s) in x.ships.iter().enumerate() {
            ships.push(ShipKind::parse(s).ok_or_else(|| {
                format!(
                    "ships[{i}] = '{}' is unknown; use one of: {}",
                    s.chars().take(40).collect::<String>(),
                    names(&ShipKind::ALL, ShipKind::as_str)
                )
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
                format!(
                    "allies[{i}] = '{}' is unknown; use one of: {}",
                    a.chars().take(40).collect::<String>(),
                    names(&AllyKind::ALL, AllyKind::as_str)
                )
            })?);
        }
        config.allies = allies;
    }
    config.nightmare = Some(x.nightmare);
    config.play_current_rules();
    config.validate().map_err(|e| e.to_string())?;
    Ok(config)
}

impl GameType for Xodus {
    fn name(&self) -> &'static str {
        "xodus"
    }

    fn wire_kind(&self) -> pb::GameKind {
        pb::GameKind::Xodus
    }

    fn setup(&self, request: &pb::CreateGameRequest, random_seed: u64) -> Result<Setup, GameError> {
        let config = config(request, random_seed).map_err(GameError::InvalidSetup)?;
        let config_json = serde_json::to_string(&config).map_err(|e| GameError::InvalidSetup(e.to_string()))?;
        Ok(Setup { config_json, seats: config.ships.len() })
    }

    fn start(&self, config_json: &str) -> Result<Box<dyn HostedGame>, GameError> {
        let config: GameConfig =
            serde_json::from_str(config_json).map_err(|e| GameError::StoredConfig(format!("config JSON: {e}")))?;
        Ok(Box::new(Table::new(Game::new(config).map_err(|e| GameError::StoredConfig(e.to_string()))?)))
    }

    fn catalog(&self) -> Vec<pb::CatalogEntry> {
        xodus_wire::catalog::entries()
    }

    fn cooperative(&self) -> bool {
        true
    }
}

/// One X-ODUS table: the engine's game.
#[derive(Clone)]
pub struct Table {
    game: Game,
}

impl Table {
    /// A table over `game`.
    pub fn new(game: Game) -> Table {
        Table { game }
    }
}

fn viewer(v: Viewer) -> xodus_engine::Viewer {
    match v {
        Viewer::Seat(s) => xodus_engine::Viewer::Seat(s),
        Viewer::Spectator => xodus_engine::Viewer::Spectator,
    }
}

impl HostedGame for Table {
    fn config_detail(&self) -> Option<prost_types::Any> {
        Some(tabletop::any::pack(&xodus_wire::state::xodus_config(self.game.config())))
    }

    fn signal_words(&self, _seat: Seat, signal: &prost_types::Any) -> Result<String, String> {
        xodus_wire::talk::words(&xodus_wire::talk::read(signal)?, self.game.public())
    }

    fn seat_roles(&self) -> Vec<String> {
        self.game.config().ships.iter().map(|k| k.as_str().to_string()).collect()
    }

    fn seat_count(&self) -> usize {
        self.game.config().ships.len()
    }

    fn decision(&self) -> pb::Decision {
        xodus_wire::decision(&self.game.decision())
    }

    fn deciders(&self) -> Vec<Seat> {
        // The engine's fast path lists the same options without labels.
        let mut seats: Vec<Seat> =
            self.game.legal().moves.iter().flat_map(|m| m.seats.as_slice().iter().copied()).collect();
        seats.sort_unstable();
        seats.dedup();
        seats
    }

    fn apply(&mut self, seat: Seat, option_id: &str) -> Result<Applied, Refusal> {
        let hidden = self.game.hidden_hash();
        match self.game.apply(seat, option_id) {
            Ok(events) => Ok(Applied {
                // Undoable: nothing random or hidden was revealed, by an
                // event or silently (a drawn tile shown in the next decision).
                undoable: events.iter().all(xodus_engine::Event::may_be_undone) && self.game.hidden_hash() == hidden,
                events: events.iter().map(|e| xodus_wire::event(e, Some(self.game.public()))).collect(),
            }),
            Err(RuleError::GameOver) => Err(Refusal::GameOver),
            Err(RuleError::NotYourDecision { .. }) => Err(Refusal::NotYourDecision),
            // The engine looks the id up first; a seat that does not
            // decide gets the same refusal whatever it sent.
            Err(_) if !self.deciders().contains(&seat) => Err(Refusal::NotYourDecision),
            Err(_) => Err(Refusal::Illegal),
        }
    }

    fn view_detail(&self, v: Viewer) -> pb::game_state::Detail {
        pb::game_state::Detail::GameState(any::pack(&xodus_wire::state::xodus_state(&self.game.view(viewer(v)))))
    }

    fn schema_version(&self) -> u32 {
        xodus_wire::SCHEMA_VERSION
    }

    fn type_name(&self) -> &'static str {
        "xodus"
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(|o| Outcome::Team { won: o.won, cause: o.cause, round: o.round })
    }

    fn round(&self) -> u32 {
        self.game.public().round
    }

    fn state_hash(&self) -> u64 {
        self.game.state_hash()
    }

    fn hidden_hash(&self) -> u64 {
        self.game.hidden_hash()
    }

    fn resampled(&self, v: Viewer, seed: u64) -> Box<dyn HostedGame> {
        Box::new(Table::new(Game::from_view(&self.game.view(viewer(v)), seed)))
    }

    fn boxed_clone(&self) -> Box<dyn HostedGame> {
        Box::new(self.clone())
    }

    /// X-ODUS hides deck and stack orders and the generator from every seat
    /// alike; no seat holds a secret (pinned by xodus-wire's round trip).
    fn same_state_for_every_viewer(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xodus_engine::Difficulty;

    fn req(setup: xodus_pb::XodusSetup) -> pb::CreateGameRequest {
        pb::CreateGameRequest {
            kind: pb::GameKind::Xodus as i32,
            setup: Some(any::game_setup(setup)),
            ..Default::default()
        }
    }

    #[test]
    fn a_choice_that_draws_a_hidden_card_silently_cannot_be_undone() {
        // A probe draws the top tile of the stack into the orientation
        // decision with no event of its own: undoing it would show a
        // player the next tile for free. Every choice of a played game is
        // undoable only if the hidden half is as it was.
        let r = req(xodus_pb::XodusSetup { ship_count: 4, seed: Some(11), ..Default::default() });
        let mut t = Table::new(Game::new(config(&r, 0).expect("valid")).expect("starts"));
        let (mut probes, mut undoable) = (0, 0);
        let mut steps = 0;
        while t.outcome().is_none() && steps < 600 {
            let d = t.decision();
            let o = &d.options[(steps * 7) % d.options.len()];
            let before = t.game.hidden_hash();
            let applied = t.apply(Seat::try_from(o.seats[0]).expect("small"), &o.id).expect("offered");
            if o.id.starts_with("probe:") || o.id.starts_with("blind_jump:") {
                probes += 1;
                assert!(!applied.undoable, "{} drew a tile", o.id);
            }
            if applied.undoable {
                undoable += 1;
                assert_eq!(t.game.hidden_hash(), before, "an undoable {} touched the hidden half", o.id);
            }
            steps += 1;
        }
        assert!(probes > 0 && undoable > 0, "the game probed ({probes}) and made undoable moves ({undoable})");
    }

    #[test]
    fn deciders_and_seat_count_agree_with_the_labelled_decision() {
        // The cheap answers the manager uses after every choice must be the
        // ones the labelled decision gives, all through a game.
        let r = req(xodus_pb::XodusSetup { ship_count: 4, seed: Some(11), ..Default::default() });
        let mut t = Table::new(Game::new(config(&r, 0).expect("valid")).expect("starts"));
        assert_eq!(t.seat_count(), t.seat_roles().len());
        let mut steps = 0;
        while t.outcome().is_none() && steps < 400 {
            let d = t.decision();
            let want: Vec<Seat> = d.deciders.iter().map(|&s| Seat::try_from(s).expect("small")).collect();
            assert_eq!(t.deciders(), want, "at step {steps}");
            let o = &d.options[steps % d.options.len()];
            t.apply(Seat::try_from(o.seats[0]).expect("small"), &o.id).expect("offered");
            steps += 1;
        }
        assert!(steps > 50, "the game went on for a while");
    }

    #[test]
    fn every_seat_sees_the_spectators_state_with_its_seat() {
        // What `same_state_for_every_viewer` promises, all through a game.
        let r = req(xodus_pb::XodusSetup { ship_count: 3, seed: Some(5), ..Default::default() });
        let mut t = Table::new(Game::new(config(&r, 0).expect("valid")).expect("starts"));
        assert!(t.same_state_for_every_viewer());
        let mut steps = 0;
        while t.outcome().is_none() && steps < 300 {
            let spectator = t.view_detail(Viewer::Spectator);
            for s in 0..3u8 {
                assert_eq!(t.view_detail(Viewer::Seat(s)), spectator, "step {steps}, seat {s}");
            }
            let o = t.decision().options[steps % 3 % t.decision().options.len()].clone();
            t.apply(Seat::try_from(o.seats[0]).expect("small"), &o.id).expect("offered");
            steps += 1;
        }
        assert!(steps > 50, "the game went on for a while");
    }

    #[test]
    fn x_odus_passes_the_conformance_suite() {
        let setups: Vec<pb::CreateGameRequest> = [(3, 1), (4, 2), (3, 3)]
            .iter()
            .map(|&(ships, seed)| {
                req(xodus_pb::XodusSetup { ship_count: ships, seed: Some(seed), ..Default::default() })
            })
            .collect();
        let seen = tabletop_service::conformance::check(&Xodus, &setups, 300).expect("conformance");
        assert!(seen.undoable > 0, "some steps were undoable: {seen:?}");
        assert_eq!(seen.with_secrets, 0, "no X-ODUS seat holds a secret of its own");
    }

    #[test]
    fn random_setup_uses_the_seed() {
        let r = req(xodus_pb::XodusSetup { ship_count: 4, seed: Some(7), ..Default::default() });
        let c = config(&r, 99).expect("valid");
        assert_eq!(c.ships.len(), 4);
        assert_eq!(c.seed, 7);
        assert_eq!(config(&r, 5).expect("valid"), c, "same seed, same config");
    }

    #[test]
    fn chosen_setup_and_refusals() {
        let mut x = xodus_pb::XodusSetup {
            ships: vec!["warship".into(), "explorer".into(), "proto_ship".into()],
            difficulty: "heroic".into(),
            allies: vec!["mercenary".into(), "smuggler".into()],
            seed: None,
            ship_count: 0,
            nightmare: false,
        };
        let c = config(&req(x.clone()), 3).expect("valid");
        assert_eq!(c.seed, 3);
        assert_eq!(c.difficulty, Difficulty::Heroic);
        assert!(!c.nightmare(), "Heroic alone has no permanent Avatar move (p. 19)");
        assert!(!c.legacy_reinforcements(), "new games: only the Avatar spaces reinforce (p. 17-18)");
        assert_eq!(c.rules_revision(), xodus_engine::RULES_REVISION, "new games play the current rules");
        x.nightmare = true;
        assert!(config(&req(x.clone()), 3).expect("valid").nightmare());
        x.nightmare = false;
        x.ships[1] = "warship".into();
        assert!(config(&req(x.clone()), 3).is_err(), "the same ship twice");
        x.ships[1] = "rowboat".into();
        let err = config(&req(x.clone()), 3).expect_err("unknown ship");
        assert!(err.to_string().contains("rowboat"), "{err}");
        let bad_count = xodus_pb::XodusSetup { ship_count: 5, ..Default::default() };
        assert!(config(&req(bad_count), 1).is_err());
        let no_setup = pb::CreateGameRequest { kind: pb::GameKind::Xodus as i32, ..Default::default() };
        let default = config(&no_setup, 1).expect("no setup is the default game");
        assert_eq!((default.ships.len(), default.difficulty), (3, Difficulty::Casual));
        let json = pb::CreateGameRequest {
            setup: Some(pb::create_game_request::Setup::SetupJson("{}".into())),
            ..no_setup.clone()
        };
        assert!(config(&json, 1).expect_err("setup_json").contains("game_setup"));
        let garbled = pb::CreateGameRequest {
            setup: Some(pb::create_game_request::Setup::GameSetup(prost_types::Any {
                type_url: "type.googleapis.com/xodus.v1.XodusSetup".into(),
                value: vec![0xff, 0xff, 0xff],
            })),
            ..no_setup
        };
        let err = config(&garbled, 1).expect_err("undecodable bytes");
        assert!(err.contains("do not decode"), "the decode error is named, not a wrong type: {err}");
    }
}
