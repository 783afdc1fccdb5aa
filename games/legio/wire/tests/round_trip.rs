//! The typed state is complete: at every step of seeded random games for
//! 2, 3 and 4 commanders, every seat's view and the spectator's, written
//! as `legio.v1.LegioState` inside a `tabletop.v1.GameState`, encoded to
//! bytes, decoded and read back, is the same engine view, pending decision
//! included. The platform decision carries the options to its decider
//! only; the others see its kind, prompt and decider. Every option carries
//! its typed choice, whose oneof field is named like the id's first word
//! and which reads back into the option's engine choice.

mod common;

use legio_engine::{Game, Viewer};
use prost::Message;
use std::collections::{BTreeMap, BTreeSet};

/// What the games went through, so that a round trip over states that
/// never had a mission or a decoded contact cannot pass unnoticed.
#[derive(Default)]
struct Seen {
    steps: usize,
    parts: BTreeSet<&'static str>,
    choices: BTreeSet<String>,
}

fn check_options(game: &Game, fields: &BTreeMap<u64, String>, seen: &mut Seen) {
    let decision = game.decision();
    for (o, wire) in decision.options.iter().zip(legio_wire::decision(&decision).options) {
        assert_eq!(wire.id, o.id);
        assert_eq!(wire.seats, vec![u32::from(decision.seat.expect("a decider"))]);
        let detail = wire.detail.expect("every option is typed");
        let typed: tabletop::legio_pb::LegioChoice = tabletop::any::unpack(&detail).expect("a LegioChoice");
        assert_eq!(legio_wire::choice::choice_back(&typed), Ok(o.choice), "{}", o.id);
        let price = typed.price.unwrap_or_default();
        assert_eq!(
            (price.cards, price.whole_hand, price.pc, price.px),
            (u32::from(o.price.cards), o.price.whole_hand, o.price.pc, u32::from(o.price.px)),
            "{}: the typed price",
            o.id
        );
        if !o.price.is_free() {
            seen.choices.insert("priced".into());
        }
        let field = common::set_field(&detail.value, fields);
        assert_eq!(o.id.split(':').next(), Some(field.as_str()), "the oneof field is named like the id");
        seen.choices.insert(field);
    }
}

fn check_every_view(game: &Game, seen: &mut Seen) {
    let players = game.players() as u8;
    let decision = game.decision();
    for viewer in (0..players).map(Viewer::Seat).chain([Viewer::Spectator]) {
        let state = legio_wire::game_state(game, viewer);
        assert_eq!(state.game_type, "legio");
        assert_eq!(state.schema_version, legio_wire::SCHEMA_VERSION);
        assert_eq!(state.state_hash, game.state_hash());
        let decoded = tabletop::pb::GameState::decode(state.encode_to_vec().as_slice()).expect("decodes");
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
        let Some(tabletop::pb::game_state::Detail::GameState(any)) = &decoded.detail else { panic!("typed state") };
        let typed: tabletop::legio_pb::LegioState = tabletop::any::unpack(any).expect("a LegioState");
        for ship in &typed.ships {
            let left = game.discovery_markers_left(ship.seat as u8);
            assert_eq!(ship.discovery_markers, Some(u32::from(left)), "seat {}'s discovery markers", ship.seat);
        }
        let mut saw = |part: &'static str, present: bool| {
            if present {
                seen.parts.insert(part);
            }
        };
        saw("mission", typed.mission.is_some());
        saw("landing", typed.landing.is_some());
        saw("tasks", !typed.tasks.is_empty());
        saw("planets", !typed.planets.is_empty());
        saw("trophies", typed.ships.iter().any(|s| !s.trophies.is_empty()));
        saw("revealed objective", typed.ships.iter().any(|s| !s.revealed_objectives.is_empty()));
        saw("imperator card", typed.imperator.as_ref().is_some_and(|i| !i.discard.is_empty()));
        saw("promotion", typed.ships.iter().any(|s| s.side == tabletop::legio_pb::Side::Spatha as i32));
        saw("tech", typed.ships.iter().any(|s| s.tech.is_some()));
        saw("x card", typed.ships.iter().any(|s| !s.x_cards.is_empty()));
        saw("end triggered", typed.end_cause.is_some());
        saw("outcome", typed.outcome.is_some());
        if let Some(secrets) = &typed.secrets {
            saw("hand", !secrets.hand.is_empty());
            saw("offer", !secrets.offer.is_empty());
            saw("discarded", !secrets.discarded.is_empty());
            saw("decoded contact", secrets.contact_a2.is_some() || secrets.contact_b.is_some());
            saw("x pile", secrets.pile_x.is_some());
        }
    }
    seen.steps += 1;
}

/// Plays the games; `sector_x`: some commander must reach Sector X in them
/// (random commanders rarely reach its 9 PX at four).
fn round_trip(players: u8, seeds: impl IntoIterator<Item = u64>, sector_x: bool) {
    let fields = common::oneof_fields("legio/v1/choice.proto", "LegioChoice");
    let mut seen = Seen::default();
    for seed in seeds {
        common::play(
            players,
            seed,
            |g| {
                check_every_view(g, &mut seen);
                check_options(g, &fields, &mut seen);
            },
            |_, _| {},
        );
    }
    assert!(seen.steps > 300, "only {} steps checked", seen.steps);
    let missing: Vec<&str> = [
        "mission",
        "landing",
        "tasks",
        "planets",
        "trophies",
        "revealed objective",
        "imperator card",
        "promotion",
        "tech",
        "x card",
        "end triggered",
        "outcome",
        "hand",
        "offer",
        "discarded",
        "decoded contact",
        "x pile",
    ]
    .into_iter()
    .filter(|p| sector_x || !["x card", "x pile"].contains(p))
    .filter(|p| !seen.parts.contains(p))
    .collect();
    println!("{players} commanders: choices met {:?}", seen.choices);
    assert!(missing.is_empty(), "{players} commanders: no state had {missing:?}; play more or longer games");
}

#[test]
fn every_view_of_two_commander_games_survives_the_typed_state() {
    round_trip(2, 0..4, true);
}

#[test]
fn every_view_of_three_commander_games_survives_the_typed_state() {
    round_trip(3, 10..14, true);
}

#[test]
fn every_view_of_four_commander_games_survives_the_typed_state() {
    round_trip(4, 20..23, false);
}

#[test]
fn a_broken_typed_state_is_an_error_not_a_panic() {
    let game = common::new_game(3, 5);
    let mut state = legio_wire::game_state(&game, Viewer::Seat(0));
    let packed =
        |t: &tabletop::legio_pb::LegioState| Some(tabletop::pb::game_state::Detail::GameState(tabletop::any::pack(t)));
    let Some(tabletop::pb::game_state::Detail::GameState(any)) = &state.detail else { panic!("typed") };
    let mut typed: tabletop::legio_pb::LegioState = tabletop::any::unpack(any).expect("a LegioState");
    typed.ships[0].px = 1000;
    state.detail = packed(&typed);
    assert_eq!(legio_wire::view(&state), Err(legio_wire::WireError::OutOfRange("ship.px")));
    typed.ships[0].px = 3;
    typed.ships[0].trophies.push(200);
    state.detail = packed(&typed);
    assert_eq!(legio_wire::view(&state), Err(legio_wire::WireError::OutOfRange("ship.trophies")));
    typed.ships[0].trophies.clear();
    typed.counts.as_mut().expect("counts").hands.pop();
    state.detail = packed(&typed);
    assert_eq!(legio_wire::view(&state), Err(legio_wire::WireError::OutOfRange("counts.hands")));
    typed.config = None;
    state.detail = packed(&typed);
    assert_eq!(legio_wire::view(&state), Err(legio_wire::WireError::Missing("config")));
    state.detail = None;
    assert_eq!(legio_wire::view(&state), Err(legio_wire::WireError::NotThisGame("legio.v1.LegioState")));
    assert_eq!(
        tabletop::any::pack(&tabletop::legio_pb::LegioState::default()).type_url,
        "type.googleapis.com/legio.v1.LegioState"
    );
}

/// A state mangled byte by byte reads back as a view or as an error, never
/// as a panic (the engine indexes with the numbers it holds).
#[test]
fn a_mangled_typed_state_never_panics() {
    let mut pick = common::Pick(0x5EED);
    let mut read = 0;
    common::play(
        3,
        41,
        |g| {
            if g.public().seq % 7 != 0 {
                return;
            }
            let decider = g.public().pending.seat().map_or(Viewer::Spectator, Viewer::Seat);
            let bytes = legio_wire::state::legio_state(&g.view(decider)).encode_to_vec();
            for _ in 0..20 {
                let mut b = bytes.clone();
                for _ in 0..3 {
                    let i = pick.next(b.len());
                    b[i] = pick.next(256) as u8;
                }
                if let Ok(s) = tabletop::legio_pb::LegioState::decode(b.as_slice()) {
                    read += usize::from(legio_wire::state::read_view(&s).is_ok());
                }
            }
        },
        |_, _| {},
    );
    assert!(read > 0, "no mangled state was readable: the mangling is too heavy to test anything");
}

/// A game stored before rules revisions (revision 0, no marker limit)
/// reads back as it was: no revision, no discovery-marker count.
#[test]
fn a_revision_0_game_survives_the_typed_state() {
    let config = legio_engine::GameConfig { rules_revision: None, ..legio_engine::GameConfig::new(2, 4) };
    let mut game = Game::new(config).expect("valid config");
    let mut pick = common::Pick(99);
    for _ in 0..300 {
        for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
            let typed = legio_wire::state::legio_state(&game.view(viewer));
            assert!(typed.ships.iter().all(|s| s.discovery_markers.is_none()));
            assert_eq!(typed.config.as_ref().and_then(|c| c.rules_revision), None);
            assert_eq!(legio_wire::state::read_view(&typed), Ok(game.view(viewer)));
        }
        let d = game.decision();
        let Some(seat) = d.seat else { break };
        let id = d.options[pick.next(d.options.len())].id.clone();
        game.apply(seat, &id).expect("legal");
    }
}
