//! VII Legio: Nébuleuse Rouge, as the server hosts it: the setup of a
//! CreateGame request, tables started from stored configurations, and the
//! engine's `Game` behind the hosting contract. A competitive game with
//! secrets per seat: each seat's view carries its own hand and objectives
//! only, and the service builds everything else of the state.

use legio_engine::{Game, GameConfig, RuleError};
use tabletop::{any, pb};
use tabletop_service::game::{Applied, GameError, GameType, HostedGame, Outcome, Refusal, Seat, Setup, Viewer};

/// The VII Legio game type.
pub struct Legio;

impl GameType for Legio {
    fn name(&self) -> &'static str {
        legio_wire::GAME_TYPE
    }

    fn wire_kind(&self) -> pb::GameKind {
        pb::GameKind::Legio
    }

    fn setup(&self, request: &pb::CreateGameRequest, random_seed: u64) -> Result<Setup, GameError> {
        let config =
            legio_wire::setup_from_request(request, random_seed).map_err(|e| GameError::InvalidSetup(e.to_string()))?;
        config.validate().map_err(|e| GameError::InvalidSetup(e.to_string()))?;
        let config_json = serde_json::to_string(&config).map_err(|e| GameError::InvalidSetup(e.to_string()))?;
        Ok(Setup { config_json, seats: usize::from(config.players) })
    }

    fn start(&self, config_json: &str) -> Result<Box<dyn HostedGame>, GameError> {
        let config: GameConfig =
            serde_json::from_str(config_json).map_err(|e| GameError::StoredConfig(format!("config JSON: {e}")))?;
        let game = Game::new(config).map_err(|e| GameError::StoredConfig(e.to_string()))?;
        Ok(Box::new(Table { game }))
    }

    fn catalog(&self) -> Vec<pb::CatalogEntry> {
        legio_wire::catalog::entries()
    }
}

/// One VII Legio table: the engine's game.
#[derive(Clone)]
pub struct Table {
    game: Game,
}

fn viewer(v: Viewer) -> legio_engine::Viewer {
    match v {
        Viewer::Seat(s) => legio_engine::Viewer::Seat(s),
        Viewer::Spectator => legio_engine::Viewer::Spectator,
    }
}

impl HostedGame for Table {
    fn signal_words(&self, _seat: Seat, signal: &prost_types::Any) -> Result<String, String> {
        legio_wire::talk::words(&legio_wire::talk::read(signal)?)
    }

    fn seat_roles(&self) -> Vec<String> {
        (1..=self.game.players()).map(|n| format!("Commander {n}")).collect()
    }

    fn seat_count(&self) -> usize {
        self.game.players()
    }

    fn decision(&self) -> pb::Decision {
        legio_wire::decision(&self.game.decision())
    }

    fn deciders(&self) -> Vec<Seat> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        self.game.public().pending.seat().into_iter().collect()
    }

    fn apply(&mut self, seat: Seat, option_id: &str) -> Result<Applied, Refusal> {
        match self.game.apply_checked(seat, option_id) {
            Ok((events, undoable)) => {
                let public = self.game.public();
                Ok(Applied { undoable, events: events.iter().map(|e| legio_wire::event(e, public)).collect() })
            }
            Err(RuleError::GameOver) => Err(Refusal::GameOver),
            Err(RuleError::NotYourDecision { .. }) => Err(Refusal::NotYourDecision),
            Err(RuleError::UnknownOption { .. }) => Err(Refusal::Illegal),
        }
    }

    fn view_detail(&self, v: Viewer) -> pb::game_state::Detail {
        pb::game_state::Detail::GameState(any::pack(&legio_wire::state::legio_state(&self.game.view(viewer(v)))))
    }

    fn schema_version(&self) -> u32 {
        legio_wire::SCHEMA_VERSION
    }

    fn type_name(&self) -> &'static str {
        legio_wire::GAME_TYPE
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().map(|o| Outcome::Ranked {
            scores: o.scores.clone(),
            ranking: o.ranking.clone(),
            winners: o.winners.clone(),
            truncated: o.truncated,
            cause: o.cause.clone(),
            round: o.round,
        })
    }

    fn round(&self) -> u32 {
        self.game.round()
    }

    fn state_hash(&self) -> u64 {
        self.game.state_hash()
    }

    fn hidden_hash(&self) -> u64 {
        self.game.hidden_hash()
    }

    fn resampled(&self, v: Viewer, seed: u64) -> Box<dyn HostedGame> {
        Box::new(Table { game: Game::from_view(&self.game.view(viewer(v)), seed) })
    }

    fn boxed_clone(&self) -> Box<dyn HostedGame> {
        Box::new(self.clone())
    }

    fn secrets(&self, seat: Seat) -> Vec<String> {
        let content = legio_engine::content::Content::get();
        let Some(mine) = self.game.view(legio_engine::Viewer::Seat(seat)).mine else { return Vec::new() };
        let card = |i: &u8| content.exploration.get(usize::from(*i)).map(|d| d.id.clone());
        let objective = |i: &u8| content.objectives.get(usize::from(*i)).map(|d| d.id.clone());
        mine.hand
            .iter()
            .chain(&mine.discarded)
            .filter_map(card)
            .chain(mine.objectives.iter().chain(&mine.offer).filter_map(objective))
            .collect()
    }

    /// Out of time: the commander ends its turn where it may, else takes
    /// the first option offered.
    fn timeout_option(&self, seat: Seat) -> Option<String> {
        let d = self.game.decision();
        if d.seat != Some(seat) {
            return None;
        }
        let pass = ["end_turn", "decline", "leave_nobody", "dismiss_nobody", "abort_landing"];
        d.options.iter().find(|o| pass.contains(&o.id.as_str())).or(d.options.first()).map(|o| o.id.clone())
    }

    fn config_detail(&self) -> Option<prost_types::Any> {
        Some(any::pack(&legio_wire::legio_config(self.game.config())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop::legio_pb;

    fn request(players: u32, seed: Option<u64>) -> pb::CreateGameRequest {
        pb::CreateGameRequest {
            game_type: "legio".into(),
            setup: Some(pb::create_game_request::Setup::GameSetup(any::pack(&legio_pb::LegioSetup {
                players,
                seed,
                ..Default::default()
            }))),
            ..Default::default()
        }
    }

    #[test]
    fn vii_legio_passes_the_conformance_suite() {
        let setups: Vec<pb::CreateGameRequest> =
            [(2, 1), (3, 2), (4, 3), (3, 4)].iter().map(|&(p, s)| request(p, Some(s))).collect();
        let seen = tabletop_service::conformance::check(&Legio, &setups, 400).expect("conformance");
        assert!(seen.undoable > 0, "some steps were undoable: {seen:?}");
        assert!(seen.with_secrets > 0 && seen.secrets_redrawn > 0, "secrets were held and redrawn: {seen:?}");
    }

    #[test]
    fn a_setup_names_what_is_wrong() {
        let err = Legio.setup(&request(5, None), 1).err().expect("5 commanders");
        assert!(err.to_string().contains("players"), "{err}");
        let garbled = pb::CreateGameRequest {
            setup: Some(pb::create_game_request::Setup::GameSetup(prost_types::Any {
                type_url: "type.googleapis.com/legio.v1.LegioSetup".into(),
                value: vec![0xff, 0xff],
            })),
            ..Default::default()
        };
        let err = Legio.setup(&garbled, 1).err().expect("undecodable");
        assert!(err.to_string().contains("does not decode"), "{err}");
        let setup = Legio.setup(&pb::CreateGameRequest::default(), 9).expect("no setup: 3 commanders");
        assert_eq!(setup.seats, 3);
        let table = Legio.start(&setup.config_json).expect("starts");
        assert_eq!(table.seat_roles(), ["Commander 1", "Commander 2", "Commander 3"]);
    }
}
