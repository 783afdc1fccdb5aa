//! The typed state is complete: at every step of seeded random games for
//! 2, 3 and 4 commanders, every seat's view and the spectator's, written
//! as `legio.v1.LegioState` inside a `tabletop.v1.GameState`, encoded to
//! bytes, decoded and read back, is the same engine view, pending decision
//! included. The platform decision carries the options to its decider
//! only; the others see its kind, prompt and decider.

mod common;

use legio_engine::{Game, Viewer};
use prost::Message;

fn check_every_view(game: &Game, steps: &mut usize) {
    let players = game.players() as u8;
    let decision = game.decision();
    for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Spectator]) {
        let state = legio_wire::game_state(game, viewer);
        assert_eq!(state.game_type, "legio");
        assert_eq!(state.schema_version, legio_wire::SCHEMA_VERSION);
        assert_eq!(state.state_hash, game.state_hash());
        let decoded = xodus::pb::GameState::decode(state.encode_to_vec().as_slice()).expect("decodes");
        let back = legio_wire::view(&decoded).expect("reads back");
        assert_eq!(back, game.view(viewer), "{viewer:?} at seq {}: the typed state lost something", game.public().seq);
        let wire = decoded.decision.expect("a decision");
        assert_eq!(wire.kind, decision.kind);
        assert_eq!(wire.prompt, decision.prompt);
        assert_eq!(wire.deciders, decision.seat.map(u32::from).into_iter().collect::<Vec<_>>());
        let decider = matches!(viewer, Viewer::Seat(s) if decision.seat == Some(s));
        if decider {
            assert_eq!(wire.options, legio_wire::decision(&decision).options);
            assert!(!wire.options.is_empty());
        } else {
            assert!(wire.options.is_empty(), "{viewer:?} sees the options of {:?}", decision.seat);
        }
        assert_eq!(decoded.outcome, game.outcome().map(legio_wire::outcome));
    }
    *steps += 1;
}

fn round_trip(players: u8, seeds: std::ops::Range<u64>) {
    let mut steps = 0;
    for seed in seeds {
        common::play(players, seed, |g| check_every_view(g, &mut steps), |_, _| {});
    }
    assert!(steps > 300, "only {steps} steps checked");
}

#[test]
fn every_view_of_two_commander_games_survives_the_typed_state() {
    round_trip(2, 0..4);
}

#[test]
fn every_view_of_three_commander_games_survives_the_typed_state() {
    round_trip(3, 10..14);
}

#[test]
fn every_view_of_four_commander_games_survives_the_typed_state() {
    round_trip(4, 20..23);
}

#[test]
fn a_broken_typed_state_is_an_error_not_a_panic() {
    let game = common::new_game(3, 5);
    let mut state = legio_wire::game_state(&game, Viewer::Seat(0));
    let packed = |t: &xodus::legio_pb::LegioState| Some(xodus::pb::game_state::Detail::GameState(xodus::any::pack(t)));
    let Some(xodus::pb::game_state::Detail::GameState(any)) = &state.detail else { panic!("typed") };
    let mut typed: xodus::legio_pb::LegioState = xodus::any::unpack(any).expect("a LegioState");
    typed.ships[0].px = 1000;
    state.detail = packed(&typed);
    assert_eq!(legio_wire::view(&state), Err(legio_wire::WireError::OutOfRange("ship.px")));
    typed.config = None;
    state.detail = packed(&typed);
    assert_eq!(legio_wire::view(&state), Err(legio_wire::WireError::Missing("config")));
    state.detail = None;
    assert_eq!(legio_wire::view(&state), Err(legio_wire::WireError::NotLegio));
    assert_eq!(
        xodus::any::pack(&xodus::legio_pb::LegioState::default()).type_url,
        "type.googleapis.com/legio.v1.LegioState"
    );
}
