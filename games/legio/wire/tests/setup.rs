//! CreateGame setups: a packed `legio.v1.LegioSetup` becomes an engine
//! configuration playing the current rules; a wrong type, bytes that do
//! not decode, JSON and out-of-range fields are refused with a message
//! naming the problem; no setup gives 3 commanders.

use legio_wire::{SetupError, config, legio_config, setup_from_request};
use tabletop::legio_pb::LegioSetup;
use tabletop::pb::{CreateGameRequest, create_game_request::Setup};

fn request(setup: Option<Setup>) -> CreateGameRequest {
    CreateGameRequest { game_type: "legio".into(), setup, ..Default::default() }
}

#[test]
fn a_typed_setup_starts_a_game_at_the_current_rules() {
    let packed = tabletop::any::pack(&LegioSetup { players: 4, seed: Some(9), round_limit: Some(30) });
    let c = setup_from_request(&request(Some(Setup::GameSetup(packed))), 77).expect("valid");
    assert_eq!((c.players, c.seed, c.round_limit), (4, 9, 30));
    assert_eq!(c.rules_revision, Some(legio_engine::RULES_REVISION));
    let typed = legio_config(&c);
    assert_eq!((typed.players, typed.round_limit, typed.rules_revision), (4, 30, Some(legio_engine::RULES_REVISION)));
    // No seed: the server's; no limit: the engine's default for new games.
    let c = config(&LegioSetup { players: 2, ..Default::default() }, 77).expect("valid");
    assert_eq!((c.players, c.seed, c.round_limit), (2, 77, legio_engine::HOSTED_ROUND_LIMIT));
}

#[test]
fn no_setup_gives_three_commanders() {
    let c = setup_from_request(&request(None), 5).expect("valid");
    assert_eq!((c.players, c.seed), (3, 5));
    assert_eq!(config(&LegioSetup::default(), 5).expect("0 means 3").players, 3);
}

#[test]
fn bad_setups_are_refused_by_name() {
    for players in [1, 5, 300] {
        let e = config(&LegioSetup { players, ..Default::default() }, 1).expect_err("refused");
        assert!(matches!(e, SetupError::Field { field: "players", .. }), "{e}");
        assert!(e.to_string().starts_with("players must be 2 to 4"), "{e}");
    }
    for limit in [0, 201] {
        let e = config(&LegioSetup { players: 3, round_limit: Some(limit), ..Default::default() }, 1).expect_err("x");
        assert!(e.to_string().starts_with("round_limit must be 1 to 200"), "{e}");
    }
    let other = tabletop::any::pack(&tabletop::xodus_pb::XodusSetup::default());
    let e = setup_from_request(&request(Some(Setup::GameSetup(other))), 1).expect_err("another game's setup");
    assert_eq!(e, SetupError::WrongType("type.googleapis.com/xodus.v1.XodusSetup".into()));
    let mut broken = tabletop::any::pack(&LegioSetup { players: 3, ..Default::default() });
    broken.value = vec![0x08, 0xff];
    let e = setup_from_request(&request(Some(Setup::GameSetup(broken))), 1).expect_err("truncated varint");
    assert!(matches!(e, SetupError::Decode(_)), "a decode error, not a wrong type: {e}");
    let mut elsewhere = tabletop::any::pack(&LegioSetup { players: 2, ..Default::default() });
    elsewhere.type_url = "example.org/types/legio.v1.LegioSetup".into();
    let c = setup_from_request(&request(Some(Setup::GameSetup(elsewhere))), 1).expect("any host before the name");
    assert_eq!(c.players, 2);
    let e = setup_from_request(&request(Some(Setup::SetupJson("{\"players\":3}".into()))), 1).expect_err("JSON");
    assert_eq!(e, SetupError::SetupJson);
    assert!(e.to_string().contains("game_setup"), "{e}");
}
