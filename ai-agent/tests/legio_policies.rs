//! The VII Legio commanders: every policy returns a legal option, is
//! deterministic for a seed, and decides from the seat's view alone (two
//! full games that differ only in what the seat cannot see get the same
//! decisions); self-play is reproducible whatever the thread count.

use legio_engine::{Game, GameConfig, Seat, View, Viewer};
use xodus_ai::Budget;
use xodus_ai::games::legio::LegioKind;
use xodus_ai::games::legio::selfplay::{LegioSelfplay, run};
use xodus_ai::games::legio::{build, my_options};
use xodus_ai::rng::Rng;

const KINDS: [LegioKind; 3] = [LegioKind::Random, LegioKind::Heuristic, LegioKind::Search];

/// The deciding seat's views met along a random game (every `every`-th
/// decision, up to `n`).
fn sample_views(players: u8, seed: u64, every: usize, n: usize) -> Vec<View> {
    let mut g = Game::new(GameConfig::new(players, seed)).expect("game");
    let mut pick = Rng::new(seed);
    let mut out = Vec::new();
    let mut step = 0;
    while g.outcome().is_none() && out.len() < n {
        let d = g.decision();
        let seat = d.seat.expect("a decider before the end");
        if step % every == 0 {
            out.push(g.view(Viewer::Seat(seat)));
        }
        let id = d.options[pick.below(d.options.len())].id.clone();
        g.apply(seat, &id).expect("offered option");
        step += 1;
    }
    out
}

fn seat_of(view: &View) -> Seat {
    match view.viewer {
        Viewer::Seat(s) => s,
        Viewer::Spectator => panic!("a seat's view"),
    }
}

#[test]
fn every_policy_returns_a_legal_id_for_its_seat() {
    let budget = Budget::new(Some(3), None);
    for players in 2..=4u8 {
        for view in sample_views(players, 40 + u64::from(players), 9, 14) {
            let (_, opts) = my_options(&view).expect("the view's seat decides");
            for kind in KINDS {
                let id = build(kind, 5).choose(&view, &budget).expect("a pick");
                assert!(opts.iter().any(|o| o.id == id), "{} picked {id}, not an option", kind.as_str());
            }
        }
    }
}

#[test]
fn policies_are_deterministic_for_a_seed() {
    let budget = Budget::new(Some(4), None);
    let views = sample_views(3, 8, 11, 10);
    for kind in KINDS {
        let (mut a, mut b) = (build(kind, 9), build(kind, 9));
        for view in &views {
            assert_eq!(a.choose(view, &budget), b.choose(view, &budget), "{}", kind.as_str());
        }
    }
}

#[test]
fn a_seat_that_does_not_decide_gets_none() {
    let view = &sample_views(3, 2, 5, 3)[2];
    let me = seat_of(view);
    assert!(view.decision.is_some(), "the decider's view has its options");
    // Another seat's view of the same moment: no options.
    let mut other = view.clone();
    other.viewer = Viewer::Seat((me + 1) % 3);
    other.decision = None;
    for kind in KINDS {
        assert_eq!(build(kind, 1).choose(&other, &Budget::new(Some(2), None)), None);
    }
}

/// Two full hidden states that the seat's view cannot tell apart (other
/// hands, objectives, deck orders, face-down contacts drawn under two
/// seeds) give the seat the same view and so the same decisions for the
/// same seed: no policy reads anything but the view.
#[test]
fn hidden_states_identical_in_the_seats_view_give_the_same_decisions() {
    let budget = Budget::new(Some(4), None);
    let mut differing = 0;
    for players in [2u8, 4] {
        for view in sample_views(players, 70 + u64::from(players), 13, 8) {
            let me = seat_of(&view);
            let (a, b) = (Game::from_view(&view, 1), Game::from_view(&view, 2));
            let (va, vb) = (a.view(Viewer::Seat(me)), b.view(Viewer::Seat(me)));
            assert_eq!(va, vb, "the seat sees the two states alike");
            assert_eq!(va, view, "and as in the true game");
            if a.hidden_hash() != b.hidden_hash() {
                differing += 1;
            }
            for kind in KINDS {
                let pa = build(kind, 33).choose(&va, &budget);
                let pb = build(kind, 33).choose(&vb, &budget);
                assert!(pa.is_some());
                assert_eq!(pa, pb, "{} decided differently on hidden parts it cannot see", kind.as_str());
            }
        }
    }
    assert!(differing >= 8, "the two states really differ in what is hidden ({differing})");
}

#[test]
fn a_time_limited_search_returns() {
    let view = sample_views(4, 3, 7, 6).pop().expect("a view");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(build(LegioKind::Search, 1).choose(&view, &Budget::new(None, Some(30))));
    });
    let id = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("the search never returned");
    assert!(id.is_some());
}

#[test]
fn selfplay_is_reproducible_and_rotates_the_policies() {
    let cfg = |jobs| LegioSelfplay {
        policies: vec![LegioKind::Heuristic, LegioKind::Random],
        games: 4,
        seed: 5,
        jobs,
        budget: Budget::new(Some(2), None),
    };
    let a = run(&cfg(2), &|| {}).expect("plays");
    let b = run(&cfg(1), &|| {}).expect("plays");
    let strip = |v: &[xodus_ai::games::legio::selfplay::LegioGame]| {
        v.iter()
            .map(|g| {
                (g.cause.clone(), g.decisions, g.seats.iter().map(|s| (s.policy, s.rank, s.score)).collect::<Vec<_>>())
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&a), strip(&b), "same seed, same games, whatever the job count");
    assert_eq!(a[0].seats[0].policy, "heuristic");
    assert_eq!(a[1].seats[0].policy, "random", "rotated one seat each game");
    assert_eq!(a[1].seats[1].policy, "heuristic");
}

/// The network agent's path: a VII Legio seat's wire state (as the server
/// sends it) is found in the registry and played by the VII Legio policy
/// of each name, with a legal option; a spectator's state gets none.
#[test]
fn a_wire_state_of_a_vii_legio_seat_is_played_by_its_policies() {
    use xodus_ai::games::legio::game::play as play_legio;
    use xodus_ai::games::{game, player_for};
    use xodus_ai::players::PlayerSpec;
    let mut g = Game::new(GameConfig::new(3, 17)).expect("game");
    let mut pick = Rng::new(17);
    for step in 0..120 {
        let d = g.decision();
        let seat = d.seat.expect("a decider");
        if step % 15 == 0 {
            let st = legio_wire::game_state(&g, Viewer::Seat(seat));
            assert_eq!(game(&st.game_type).map(|g| g.game_type()), Some("legio"));
            for kind in KINDS {
                let id = play_legio(kind, 3, &st, &Budget::new(Some(2), None)).expect("readable").expect("a pick");
                assert!(d.options.iter().any(|o| o.id == id), "{} picked {id}", kind.as_str());
                // The same through the registry, as the agent plays it.
                let spec = PlayerSpec { policy: kind.as_str(), seed: 3, agent_seed: 3, threads: 1 };
                let via = player_for(&st.game_type, spec).choose(&st, seat, &Budget::new(Some(2), None), 3);
                assert_eq!(via, Ok(Some(id)), "{}", kind.as_str());
            }
            let watcher = legio_wire::game_state(&g, Viewer::Spectator);
            assert_eq!(play_legio(LegioKind::Heuristic, 3, &watcher, &Budget::default()).expect("readable"), None);
        }
        let id = d.options[pick.below(d.options.len())].id.clone();
        g.apply(seat, &id).expect("offered option");
    }
}
