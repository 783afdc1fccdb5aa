//! The typed state is complete: over random full games at 3 and 4 ships,
//! every difficulty, every view (each seat and a spectator) written as
//! `xodus.v1.XodusState`, encoded to bytes, decoded and read back is the
//! same engine view, pending decision included. Every option's typed
//! choice names its action, and every event's typed form round-trips
//! through `Any`.

use prost::Message;
use tabletop::{any, xodus_pb};
use xodus_engine::{AllyKind, Difficulty, Game, GameConfig, ShipKind, Viewer};

fn config(seed: u64) -> GameConfig {
    let ships = [
        ShipKind::Warship,
        ShipKind::Battlecruiser,
        ShipKind::Explorer,
        ShipKind::PirateShip,
        ShipKind::DroneSpecialist,
        ShipKind::ProtoShip,
    ];
    let n = 3 + (seed % 2) as usize;
    let start = (seed as usize / 2) % 6;
    GameConfig {
        ships: (0..n).map(|i| ships[(start + i) % 6]).collect(),
        difficulty: Difficulty::ALL[(seed % 3) as usize],
        allies: vec![AllyKind::ALL[(seed % 4) as usize], AllyKind::ALL[((seed + 1) % 4) as usize]],
        seed,
        nightmare: Some(seed.is_multiple_of(5)),
        legacy_reinforcements: None,
        rules_revision: Some(xodus_engine::RULES_REVISION),
    }
}

/// A cheap deterministic generator for picking options.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn every_view_survives_the_typed_state() {
    let mut checked = 0;
    for seed in 1..=6u64 {
        let cfg = config(seed);
        let seats = cfg.ships.len() as u8;
        let mut game = Game::new(cfg).expect("valid config");
        let mut pick = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for step in 0..4000u64 {
            let viewers = (0..seats).map(Viewer::Seat).chain([Viewer::Spectator]);
            let shared = xodus_wire::game_state("g", step, &game, Viewer::Spectator);
            for viewer in viewers {
                let state = xodus_wire::game_state("g", step, &game, viewer);
                // Every viewer sees the spectator's state with its seat: what
                // lets a server render one state per seq for all of them
                // (the service's `same_state_for_every_viewer`).
                let mut same = shared.clone();
                same.viewer_seat = state.viewer_seat;
                assert_eq!(same, state, "seed {seed} step {step}");
                let bytes = state.encode_to_vec();
                let decoded = tabletop::pb::GameState::decode(bytes.as_slice()).expect("decodes");
                let mut expected = game.view(viewer);
                expected.public.seq = step;
                let back = xodus_wire::view(&decoded).expect("reads back");
                assert_eq!(back, expected, "seed {seed} step {step}: the typed state lost something");
                checked += 1;
            }
            let decision = game.decision();
            for option in xodus_wire::decision(&decision).options {
                let typed =
                    any::option_detail::<tabletop::xodus_pb::XodusChoice>(&option).expect("every option is typed");
                assert!(!typed.action.is_empty(), "option {} has no action", option.id);
                // The action is the choice's variant name, as serde names it.
                let action = match serde_json::from_str(&option.payload_json).expect("payload is JSON") {
                    serde_json::Value::String(s) => s,
                    serde_json::Value::Object(m) => m.keys().next().cloned().expect("one key"),
                    other => panic!("unexpected payload shape {other}"),
                };
                assert_eq!(typed.action, action, "option {}", option.id);
                assert_documented(&typed.action);
            }
            let Some(option) = decision.options.get((next(&mut pick) % decision.options.len().max(1) as u64) as usize)
            else {
                break;
            };
            let seat = option.seats[0];
            let id = option.id.clone();
            let events = game.apply(seat, &id).expect("legal option");
            for event in events {
                let wire = xodus_wire::event(&event, Some(game.public()));
                let json = serde_json::to_value(&event).expect("serializes");
                assert_eq!(Some(wire.kind.as_str()), json["event"].as_str(), "the kind is the serde tag");
                assert_eq!(serde_json::from_str::<serde_json::Value>(&wire.event_json).ok(), Some(json));
                let t = xodus_wire::events::typed(&event);
                assert_eq!(
                    any::event_detail::<tabletop::xodus_pb::XodusEvent>(&wire),
                    Some(t.clone()),
                    "every event is typed: {}",
                    wire.kind
                );
                assert!(!format!("{t:?}").contains("4294967295"), "an unknown catalog index: {t:?}");
            }
        }
        assert!(game.outcome().is_some(), "seed {seed}: the game did not end in 4000 steps");
    }
    assert!(checked > 1000, "only {checked} views checked");
}

#[test]
fn a_broken_typed_state_is_an_error_not_a_panic() {
    let game = Game::new(config(3)).expect("valid config");
    let mut state = xodus_wire::game_state("g", 0, &game, Viewer::Spectator);
    let mut typed = any::state_detail::<tabletop::xodus_pb::XodusState>(&state).expect("typed");
    typed.ships[0].health = 1000;
    state.detail = Some(tabletop::pb::game_state::Detail::GameState(any::pack(&typed)));
    assert!(matches!(xodus_wire::view(&state), Err(xodus_wire::WireError::OutOfRange("ship.health"))));
    typed.config = None;
    state.detail = Some(tabletop::pb::game_state::Detail::GameState(any::pack(&typed)));
    assert_eq!(xodus_wire::view(&state), Err(xodus_wire::WireError::Missing("config")));
    state.detail = None;
    assert_eq!(xodus_wire::view(&state), Err(xodus_wire::WireError::NotThisGame("xodus.v1.XodusState")));
    assert_eq!(
        any::pack(&xodus_pb::XodusState::default()).type_url,
        "type.googleapis.com/xodus.v1.XodusState",
        "type URLs as every protobuf library writes them"
    );
}

/// The comment of `XodusChoice.action` in choice.proto lists every action
/// name a front-end can meet: `action` is one of them.
fn assert_documented(action: &str) {
    const PROTO: &str = include_str!("../../../../proto/xodus/v1/choice.proto");
    let listed = PROTO.split("string action = 1;").next().unwrap_or_default();
    let named = listed.split(|c: char| !(c.is_ascii_lowercase() || c == '_')).any(|word| word == action);
    assert!(named, "choice.proto's XodusChoice.action comment does not list '{action}'");
}
