//! Hidden information (rulebook "Le Tour de Jeu": hands and face-down
//! discards; "Décrypter les signaux extrasolaires": decoded contacts;
//! "Explorer le secteur X": the X pile; "Objectifs secrets"): a view shows
//! a seat its own secrets and nothing else, two states differing only in
//! what a seat cannot see give that seat identical views, and states
//! sampled from a view agree with it, including that a hidden objective of
//! the "achieved" kind is not met yet.

use legio_engine::content::{Content, When};
use legio_engine::{Game, GameConfig, Pending, Viewer};

fn advance(g: &mut Game, steps: usize, salt: u64) {
    let mut x = salt | 1;
    for _ in 0..steps {
        if g.outcome().is_some() {
            return;
        }
        let d = g.decision();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let id = d.options[(x % d.options.len() as u64) as usize].id.clone();
        g.apply(d.seat.expect("decider"), &id).expect("legal");
    }
}

fn viewers(g: &Game) -> Vec<Viewer> {
    let mut v: Vec<Viewer> = (0..g.players() as u8).map(Viewer::Seat).collect();
    v.push(Viewer::Spectator);
    v
}

#[test]
fn states_differing_only_in_hidden_information_give_identical_views() {
    let mut differed = 0;
    for seed in 0..30u64 {
        let mut g = Game::new(GameConfig::new(2 + (seed % 3) as u8, seed)).expect("config");
        advance(&mut g, (seed as usize * 37) % 400, seed);
        for viewer in viewers(&g) {
            let v = g.view(viewer);
            let a = Game::from_view(&v, seed + 1);
            let b = Game::from_view(&v, seed + 2);
            assert_eq!(a.view(viewer), v, "seed {seed}: a sample keeps every fact of {viewer:?}'s view");
            assert_eq!(b.view(viewer), v, "seed {seed}");
            differed += usize::from(a.state_hash() != b.state_hash());
            // The samples are full, playable states.
            let mut a = a;
            advance(&mut a, 60, seed);
        }
    }
    assert!(differed > 50, "samples redraw the hidden part ({differed})");
}

#[test]
fn a_view_shows_its_seat_only_its_own_secrets() {
    let mut g = Game::new(GameConfig::new(3, 4)).expect("config");
    advance(&mut g, 40, 4);
    for _ in 0..200 {
        if matches!(g.public().pending, Pending::Turn { .. }) && !g.hand(g.public().active).is_empty() {
            break;
        }
        advance(&mut g, 1, 9);
    }
    let active = g.public().active;
    for viewer in viewers(&g) {
        let v = g.view(viewer);
        match viewer {
            Viewer::Seat(s) => {
                let mine = v.mine.as_ref().expect("a seat sees its own secrets");
                assert_eq!(mine.hand, g.hand(s));
                assert_eq!(mine.objectives, g.hidden_objectives(s));
                assert_eq!(v.decision.is_some(), s == active, "options go to the decider only");
            }
            Viewer::Spectator => {
                assert!(v.mine.is_none() && v.decision.is_none());
            }
        }
        assert_eq!(v.config.seed, 0, "the seed is never shown");
        let json = serde_json::to_string(&v).expect("json");
        for field in ["\"deck\":[", "\"hands\":[[", "objective_pile\":[", "imperator_deck\":[", "rng"] {
            assert!(!json.contains(field), "{viewer:?}'s view holds {field}");
        }
    }
}

#[test]
fn sampled_hidden_objectives_of_the_achieved_kind_are_never_already_met() {
    let c = Content::get();
    for seed in 0..40u64 {
        let mut g = Game::new(GameConfig::new(4, seed)).expect("config");
        advance(&mut g, 150 + (seed as usize * 13) % 300, seed);
        let v = g.view(Viewer::Seat(0));
        for sample in 0..5 {
            let s = Game::from_view(&v, sample);
            for seat in 0..4u8 {
                for &o in s.hidden_objectives(seat) {
                    let def = &c.objectives[usize::from(o)];
                    assert!(
                        def.when == When::End || !s.objective_met(seat, def),
                        "seed {seed}: seat {seat} hides {} though it is met",
                        def.id
                    );
                }
            }
        }
    }
}

#[test]
fn decoded_contacts_and_the_x_pile_are_seen_by_their_viewer_only() {
    // Find states in random games where a seat decoded a contact or saw
    // the X pile, and check who sees what.
    let (mut decoded, mut x_seen) = (0, 0);
    for seed in 0..60u64 {
        let mut g = Game::new(GameConfig::new(3, seed)).expect("config");
        for _ in 0..600 {
            if g.outcome().is_some() {
                break;
            }
            advance(&mut g, 1, seed * 7 + 3);
            let pb = g.public();
            for slot in 0..2 {
                for s in 0..3u8 {
                    let seen = pb.contact_seen[slot].contains(&s);
                    let mine = g.view(Viewer::Seat(s)).mine.expect("seat").contacts[slot];
                    assert_eq!(mine.is_some(), seen && pb.contact_down[slot]);
                    decoded += usize::from(seen);
                }
            }
            for s in 0..3u8 {
                let shown = g.view(Viewer::Seat(s)).mine.expect("seat").pile_x.is_some();
                assert_eq!(shown, pb.x_seen_by.contains(&s));
                x_seen += usize::from(shown);
            }
        }
    }
    assert!(decoded > 0, "some contact was decoded");
    eprintln!("decoded views {decoded}, X pile views {x_seen}");
}
