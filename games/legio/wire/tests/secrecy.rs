//! A state tells its viewer nothing the rules hide from it. At every step
//! of seeded random games:
//! - a seat's whole `GameState` (state hash aside: it covers the hidden
//!   part by design) is byte for byte the same in a game whose hidden part
//!   was redrawn around that seat's view (`Game::from_view`): other hands,
//!   objectives, piles and face-down cards leave no trace in it;
//! - the same holds for a spectator, who sees no secret at all;
//! - no card of another seat's hand and no objective another seat keeps or
//!   is offered appears anywhere in a seat's typed state, and its secrets
//!   are its own.

mod common;

use legio_engine::{Game, Viewer};
use prost::Message;
use tabletop::legio_pb as l;

/// The bytes a viewer receives, without the state hash.
fn sent(game: &Game, viewer: Viewer) -> Vec<u8> {
    let mut state = legio_wire::game_state(game, viewer);
    state.state_hash = 0;
    state.encode_to_vec()
}

fn typed(game: &Game, viewer: Viewer) -> l::LegioState {
    legio_wire::state::legio_state(&game.view(viewer))
}

/// Every Exploration card index a typed state holds.
fn exploration_cards(s: &l::LegioState) -> Vec<u32> {
    let mut v = s.discard_up.clone();
    if let Some(p) = &s.secrets {
        v.extend(&p.hand);
        v.extend(&p.discarded);
    }
    if let Some(step) = &s.step {
        v.extend(step.card);
        v.extend(step.purpose.as_ref().and_then(|p| p.card));
    }
    v
}

/// Every Secret Objective index a typed state holds.
fn objectives(s: &l::LegioState) -> Vec<u32> {
    let mut v: Vec<u32> = s.ships.iter().flat_map(|x| x.revealed_objectives.clone()).collect();
    if let Some(p) = &s.secrets {
        v.extend(&p.objectives);
        v.extend(&p.offer);
    }
    v
}

fn check(game: &Game, resample_seed: u64, redrawn: &mut usize) {
    let n = game.players() as u8;
    for viewer in (0..n).map(Viewer::Seat).chain([Viewer::Spectator]) {
        let other = Game::from_view(&game.view(viewer), resample_seed);
        assert_eq!(sent(game, viewer), sent(&other, viewer), "{viewer:?} at seq {}", game.public().seq);
        if (0..n).any(|t| Viewer::Seat(t) != viewer && game.hand(t) != other.hand(t)) {
            *redrawn += 1;
        }
        let state = typed(game, viewer);
        let (cards, objs) = (exploration_cards(&state), objectives(&state));
        for t in (0..n).filter(|&t| Viewer::Seat(t) != viewer) {
            for card in game.hand(t) {
                assert!(!cards.contains(&u32::from(*card)), "{viewer:?} sees a card of seat {t}'s hand");
            }
            let offers = &game.view(Viewer::Seat(t)).mine.expect("a seat's secrets").offer;
            for o in game.hidden_objectives(t).iter().chain(offers) {
                assert!(!objs.contains(&u32::from(*o)), "{viewer:?} sees an objective of seat {t}");
            }
        }
        match viewer {
            Viewer::Seat(s) => {
                let secrets = state.secrets.expect("a seat has its secrets");
                assert_eq!(secrets.seat, u32::from(s));
                assert_eq!(secrets.hand, game.hand(s).iter().map(|&c| u32::from(c)).collect::<Vec<_>>());
            }
            Viewer::Spectator => assert!(state.secrets.is_none(), "a spectator has no secrets"),
        }
    }
}

#[test]
fn no_state_carries_what_its_viewer_cannot_see() {
    let mut redrawn = 0;
    let mut steps = 0;
    for (players, seed) in [(2, 31), (3, 32), (4, 33), (3, 35)] {
        common::play(
            players,
            seed,
            |g| {
                steps += 1;
                check(g, seed ^ g.public().seq, &mut redrawn);
            },
            |_, _| {},
        );
    }
    // The check has teeth: the redrawn games held other hands most of the
    // time, and the states stayed the same all the same.
    assert!(redrawn * 2 > steps, "only {redrawn} of {steps} steps redrew another seat's hand");
}
