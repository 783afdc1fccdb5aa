//! Hidden information: a view carries no hidden order, and a state sampled
//! from a view agrees with everything the view shows (GUIDE, "Hidden
//! information"; rulebook p. 4: stack, decks and face-down tokens).

use xodus_engine::{Difficulty, Game, GameConfig, Viewer};

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
        let o = &d.options[(x % d.options.len() as u64) as usize];
        let (s, id) = (o.seats[0], o.id.clone());
        g.apply(s, &id).unwrap();
    }
}

#[test]
fn a_view_is_the_same_whatever_the_hidden_orders() {
    for seed in 0..40u64 {
        let mut g = Game::new(GameConfig::random(seed, 3 + (seed % 2) as usize, Difficulty::Hardened)).unwrap();
        advance(&mut g, (seed as usize * 7) % 90, seed);
        let v = g.view(Viewer::Seat(0));
        // Resample the hidden half twice: the views agree, the states differ.
        let a = Game::from_view(&v, 1);
        let b = Game::from_view(&v, 2);
        assert_eq!(a.view(Viewer::Seat(0)), v, "sampling keeps every public fact");
        assert_eq!(b.view(Viewer::Seat(0)), v);
        assert_ne!(a.state_hash(), b.state_hash(), "hidden orders differ between samples");
        // Seats and spectators see the same public state (no private hands).
        assert_eq!(g.view(Viewer::Spectator).public, v.public);
    }
}

#[test]
fn no_view_leaks_the_stack_or_deck_orders() {
    let g = Game::new(GameConfig::random(11, 4, Difficulty::Casual)).unwrap();
    let json = serde_json::to_string(&g.view(Viewer::Spectator)).unwrap();
    for field in
        ["\"stack\"", "enemy_deck\"", "enemy_reserve\"", "mat_avatars", "signal_cards", "damaged_deck\"", "rng"]
    {
        assert!(!json.contains(field), "view JSON must not contain {field}");
    }
    // Two games differing only in hidden order, same public start: equal views.
    let c = GameConfig::random(11, 4, Difficulty::Casual);
    let v1 = Game::new(c.clone()).unwrap().view(Viewer::Spectator);
    let v2 = Game::from_view(&v1, 999).view(Viewer::Spectator);
    assert_eq!(v1, v2);
}

#[test]
fn sampled_states_play_on_legally() {
    for seed in 0..20u64 {
        let mut g = Game::new(GameConfig::random(seed, 4, Difficulty::Casual)).unwrap();
        advance(&mut g, 40, seed + 5);
        let mut s = Game::from_view(&g.view(Viewer::Seat(1)), seed);
        assert_eq!(s.decision(), g.decision());
        advance(&mut s, 5_000, seed + 77);
        assert!(s.outcome().is_some());
    }
}
